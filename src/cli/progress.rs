//! Progress bars on stderr for the long commands (indicatif): drawn on a
//! terminal, hidden when stderr is a log, which gets the commands' own
//! summary lines instead.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar drawn with `template` (indicatif's) when stderr is a terminal, a
/// hidden one otherwise.
pub fn stderr_bar(template: &str) -> ProgressBar {
    let bar = ProgressBar::hidden();
    if on_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
    }
    bar
}

/// Whether stderr is a terminal (where bars are drawn).
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal()
}
