//! The command line: consistent, with the documented defaults and sub-commands.

use clap::{CommandFactory, Parser};
use engine::{Role, Speed};
use server::cli::{Cli, Command, UserCommand};

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn bare_invocation_serves_with_defaults() {
    let cli = Cli::try_parse_from(["switchyard"]).expect("parse");
    assert!(cli.command.is_none());
    assert_eq!(cli.serve.addr.to_string(), "127.0.0.1:3000");
    assert_eq!(cli.serve.database_url, "sqlite://data/switchyard.db");
}

#[test]
fn sub_commands_parse() {
    let cli = Cli::try_parse_from([
        "switchyard",
        "user",
        "add",
        "--username",
        "a",
        "--role",
        "operator",
    ])
    .expect("parse");
    assert!(
        matches!(cli.command, Some(Command::User(UserCommand::Add(ref a))) if a.role == Role::Operator)
    );
    let cli = Cli::try_parse_from(["switchyard", "serve", "--speed", "600x"]).expect("parse");
    assert!(matches!(cli.command, Some(Command::Serve(ref s)) if s.speed == Some(Speed::X600)));
    assert!(Cli::try_parse_from([
        "switchyard",
        "user",
        "add",
        "--username",
        "a",
        "--role",
        "root"
    ])
    .is_err());
}

#[test]
fn public_urls_and_the_secure_cookie_parse() {
    let cli = Cli::try_parse_from(["switchyard"]).expect("parse");
    assert!(cli.serve.public_url.is_empty());
    assert_eq!(cli.serve.cookie_secure, None);
    let cli = Cli::try_parse_from([
        "switchyard",
        "--public-url",
        "https://console.example.com",
        "--public-url",
        "http://10.0.0.5:3000",
        "--cookie-secure",
    ])
    .expect("parse");
    assert_eq!(
        cli.serve.public_url,
        ["https://console.example.com", "http://10.0.0.5:3000"]
    );
    assert_eq!(cli.serve.cookie_secure, Some(true));
    let cli = Cli::try_parse_from(["switchyard", "--cookie-secure", "false"]).expect("parse");
    assert_eq!(cli.serve.cookie_secure, Some(false));
    for bad in [
        "console.example.com",
        "https://console.example.com/app",
        "ftp://x",
    ] {
        let refused = Cli::try_parse_from(["switchyard", "--public-url", bad]);
        let message = refused.expect_err(bad).to_string();
        assert!(message.contains("--public-url"), "{bad}: {message}");
        assert!(message.contains("scheme://host[:port]"), "{bad}: {message}");
    }
}
