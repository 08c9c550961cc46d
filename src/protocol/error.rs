//! What is wrong with a command line: the one error type of the UGI and
//! NBoard parsers, whose lines share a shape (a command word, then keywords
//! and values) and so their ways of being wrong.

use std::fmt;

use crate::ggf::GgfError;

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word (for NBoard's `set`, the property too) is not a command.
    Unknown(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// An argument has a value of the wrong form.
    BadValue {
        /// The command.
        command: &'static str,
        /// The parameter, where the command takes several.
        name: Option<String>,
        /// The value given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A token the command does not take.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The token.
        token: String,
    },
    /// An argument in GGF (NBoard's `set game` record, its `move`) does not
    /// parse.
    Ggf {
        /// The command.
        command: &'static str,
        /// What is wrong with it.
        error: GgfError,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::BadValue {
                command,
                name,
                value,
                expected,
            } => {
                write!(f, "{command}: bad value '{value}'")?;
                if let Some(name) = name {
                    write!(f, " for {name}")?;
                }
                write!(f, " (expected {expected})")
            }
            CommandError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{token}'")
            }
            CommandError::Ggf { command, error } => write!(f, "{command}: {error}"),
        }
    }
}

impl std::error::Error for CommandError {}
