import { describe, expect, it } from "vitest";
import { findBlockedCommand } from "../../src/permissions/block-list.js";
import { splitShellCommand } from "../../src/permissions/shell-split.js";

describe("findBlockedCommand", () => {
  it.each([
    "rm -rf /",
    "rm -rf /*",
    "rm -fr ~",
    "rm -rf ~/",
    "rm -Rf $HOME",
    "rm -r -f /usr",
    "rm --recursive --force /",
    "rm -rf / --no-preserve-root",
    "cd /tmp && rm -rf /",
    "echo hi; rm -rf ~",
    "true || rm -rf /",
    "ls | sudo tee /etc/hosts",
    "sudo ls",
    "/usr/bin/sudo apt-get install x",
    "FOO=1 sudo make install",
    "env -u X sudo id",
    "nohup reboot",
    "xargs -n1 sudo rm < list",
    "su -c 'id'",
    "mkfs.ext4 /dev/sdb1",
    "mkfs -t ext4 /dev/sdb1",
    "dd if=/dev/zero of=/tmp/x",
    "shutdown -h now",
    "reboot",
    "systemctl reboot",
    "halt",
    "poweroff",
    "echo x > /dev/sda",
    "cat image >> /dev/nvme0n1",
    "cp disk.img /dev/sdb",
    ":(){ :|:& };:",
    "bomb(){ bomb|bomb& }; bomb",
    "chmod -R 777 /",
    "chown -R me ~",
    'bash -c "rm -rf /"',
    "sh -c 'sudo id'",
    "bash -lc 'cd x && shutdown now'",
    "eval 'rm -rf ~'",
    "echo $(sudo id)",
    "echo `reboot`",
    "timeout 5 sudo ls",
    "(cd / && rm -rf /*)",
  ])("blocks %s", (command) => {
    expect(findBlockedCommand(command)).toBeDefined();
  });

  it.each([
    "rm -rf ./build",
    "rm -rf build dist",
    "rm -rf /tmp/hx-test/cache",
    "rm -rf ~/project/node_modules",
    "rm /tmp/x",
    "echo sudo",
    "echo 'rm -rf /'",
    'grep -r "rm -rf /" docs',
    "git commit -m 'reboot the thing'",
    "ls ~/",
    "cat /dev/null",
    "echo hi > /dev/null",
    "command 2>&1 | tee out.log",
    "dd --version",
    "chmod 644 README.md",
    "chmod -R u+w ./dist",
    "man shutdown",
    "npm run reboot-server",
    "cat shutdown.txt",
    "bash -c 'echo safe'",
  ])("does not block %s", (command) => {
    expect(findBlockedCommand(command)).toBeUndefined();
  });
});

describe("splitShellCommand", () => {
  it("splits on operators, removes quotes and notes redirections", () => {
    const parts = splitShellCommand(
      `git add -A && git commit -m "a; b" || echo 'x|y' > out.txt 2>&1 | tee log`,
    );
    expect(parts.map((part) => part.words)).toEqual([
      ["git", "add", "-A"],
      ["git", "commit", "-m", "a; b"],
      ["echo", "x|y"],
      ["tee", "log"],
    ]);
    expect(parts[2].writes).toEqual(["out.txt"]);
    expect(parts[1].text).toBe(`git commit -m "a; b"`);
  });

  it("lifts command substitutions out as commands", () => {
    const parts = splitShellCommand("echo $(whoami) `date`");
    expect(parts.map((part) => part.words[0])).toEqual(["whoami", "date", "echo"]);
  });
});
