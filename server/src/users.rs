//! `switchyard user add`: creates a console user, reading the password from standard input.

use std::io::BufRead;
use std::process::ExitCode;

use crate::cli::UserAddArgs;

/// Runs the command; returns the process exit status (2 for refused input).
pub async fn add(args: UserAddArgs) -> ExitCode {
    let mut password = String::new();
    if let Err(e) = std::io::stdin().lock().read_line(&mut password) {
        eprintln!("switchyard user add: cannot read the password from standard input: {e}");
        return ExitCode::from(2);
    }
    let password = password.trim_end_matches(['\r', '\n']);
    let store = match services::Store::connect(&args.database_url).await {
        Ok(store) => store,
        Err(e) => {
            eprintln!("switchyard user add: {e}");
            return ExitCode::from(2);
        }
    };
    match services::accounts::create(&store, &args.username, password, args.role).await {
        Ok(user) => {
            println!("created user `{}` with role {}", user.username, user.role);
            ExitCode::SUCCESS
        }
        Err(e @ (services::ServiceError::Conflict(_) | services::ServiceError::Invalid { .. })) => {
            eprintln!("switchyard user add: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("switchyard user add: {e}");
            ExitCode::FAILURE
        }
    }
}
