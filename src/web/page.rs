//! The page's files, built into the binary: nothing to install, no network.

/// One file the server sends.
#[derive(Debug)]
pub struct File {
    /// Its name in the address (`/app.js`).
    pub name: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

/// The page (`/`).
pub static INDEX: File = File {
    name: "index.html",
    content_type: "text/html; charset=utf-8",
    body: include_str!("page/index.html"),
};

/// The page's icon: two discs on a green square.
const ICON: &str = include_str!("page/favicon.svg");

/// Every file but the page itself (the icon twice: browsers ask for
/// `/favicon.ico` whatever the page names).
static FILES: [File; 4] = [
    File {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/app.js"),
    },
    File {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
    File {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        body: ICON,
    },
    File {
        name: "favicon.ico",
        content_type: "image/svg+xml",
        body: ICON,
    },
];

/// The file named `name` (`index.html` too).
pub fn file(name: &str) -> Option<&'static File> {
    std::iter::once(&INDEX)
        .chain(FILES.iter())
        .find(|f| f.name == name)
}
