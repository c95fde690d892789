import { describe, expect, it } from "vitest";
import { decideCommand } from "./support.js";

const bypass = { mode: "bypassPermissions" as const, home: "/home/u" };

describe("the block list", () => {
  it.each([
    "rm -rf /",
    "rm -rf /*",
    "rm -fr ~",
    "rm -rf ~/",
    "rm -Rf $HOME",
    "rm -r -f /usr",
    "rm --recursive --force /",
    "rm -rf / --no-preserve-root",
    "rm -rf -- /",
    "rm -rf /.",
    "rm -rf /tmp/..",
    "rm -rf /?",
    "rm -rf {/,x}",
    "rm -rf ~root",
    "rm -r$'f' /",
    "r\\m -rf /",
    'rm -rf "$(printf /)"',
    "cd / && rm -rf *",
    "cd /tmp && rm -rf /",
    "(cd / && rm -rf /*)",
    "echo hi; rm -rf ~",
    "true || rm -rf /",
    "ls | sudo tee /etc/hosts",
    "sudo ls",
    "s\\udo ls",
    '"sudo" ls',
    "/usr/bin/sudo apt-get install x",
    "FOO=1 sudo make install",
    "env -u X sudo id",
    "exec sudo ls",
    "command sudo ls",
    "nohup reboot",
    "xargs -n1 sudo rm < list",
    "echo x | xargs sudo ls",
    "su -c 'id'",
    "pkexec ls",
    "mkfs.ext4 /dev/sdb1",
    "mkfs -t ext4 /dev/sdb1",
    "wipefs -a /dev/sda",
    "dd if=/dev/zero of=/tmp/x",
    "shutdown -h now",
    "reboot",
    "systemctl reboot",
    "systemctl poweroff",
    "halt",
    "poweroff",
    "echo x > /dev/sda",
    "cat image >> /dev/nvme0n1",
    "cat x | tee /dev/nvme0n1",
    "cp disk.img /dev/sdb",
    ":(){ :|:& };:",
    "bomb(){ bomb|bomb& }; bomb",
    "f(){ f|f& };f",
    "chmod -R 777 /",
    "chmod -R 777 ~",
    "chown -R me ~",
    "find / -delete",
    "find ~ -exec rm {} +",
    'bash -c "rm -rf /"',
    "sh -c 'sudo id'",
    "bash -c -- 'sudo ls'",
    "bash -lc 'cd x && shutdown now'",
    "bash <<< 'sudo ls'",
    "echo 'sudo ls' | sh",
    "eval 'rm -rf ~'",
    "echo $(sudo id)",
    "echo `reboot`",
    "`echo sudo` ls",
    "$(echo sudo) id",
    "timeout 5 sudo ls",
    "{ sudo ls; }",
    "echo $'\\'' ; sudo ls ; echo '#'",
    "python3 -c 'import os; os.system(\"sudo ls\")'",
    "kill -9 -1",
  ])("blocks %s", async (command) => {
    const decision = await decideCommand(bypass, command);
    expect(decision.action).toBe("deny");
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
    "make 2>&1 | tee out.log",
    "dd --version",
    "chmod 644 README.md",
    "chmod -R u+w ./dist",
    "man shutdown",
    "npm run reboot-server",
    "cat shutdown.txt",
    "bash -c 'echo safe'",
    "command -v sudo",
    "find . -name '*.ts' -delete",
    "busybox wget http://127.0.0.1:9/x",
    "find . -name node_modules -type d | xargs rm -rf",
  ])("does not block %s", async (command) => {
    const decision = await decideCommand(bypass, command);
    expect(decision).toMatchObject({ action: "allow" });
  });

  it("says why", async () => {
    expect(await decideCommand(bypass, "cd / && rm -rf *")).toMatchObject({
      reason: expect.stringContaining("rm -r on *"),
    });
    expect(await decideCommand(bypass, "f(){ f|f& };f")).toMatchObject({
      reason: expect.stringContaining("fork bomb"),
    });
  });
});
