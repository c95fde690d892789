process.stdout.write("hx placeholder\n");
