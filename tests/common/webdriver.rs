//! A small W3C WebDriver client over a plain socket, for the browser test:
//! headless Chromium driven by Debian's `chromedriver`.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{Json, JsonExt};

/// The key W3C WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver with one browser session.
pub struct Browser {
    driver: Child,
    address: String,
    session: String,
}

/// Where Debian installs the driver and the browser.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

impl Browser {
    /// Whether the driver is installed here.
    pub fn available() -> bool {
        std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists()
    }

    /// Starts chromedriver and a headless browser of `width` x `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        let port = {
            let probe = TcpListener::bind("127.0.0.1:0").unwrap();
            probe.local_addr().unwrap().port()
        };
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let address = format!("127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            address,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(&browser.address).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            thread::sleep(Duration::from_millis(100));
        }
        let capabilities = format!(
            r#"{{"capabilities":{{"alwaysMatch":{{"browserName":"chrome","goog:chromeOptions":{{"binary":"{CHROMIUM}","args":["--headless=new","--no-sandbox","--disable-gpu","--disable-dev-shm-usage","--window-size={width},{height}"]}}}}}}}}"#
        );
        let value = browser.call("POST", "/session", &capabilities);
        browser.session = value.get_str("sessionId").expect("a session").to_string();
        browser
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: &str) -> Json {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path} {body}: {e}"))
    }

    /// One WebDriver command; its `value`, or the driver's error.
    fn try_call(&self, method: &str, path: &str, body: &str) -> Result<Json, Json> {
        let (head, body) = super::http(&self.address, method, path, body, Duration::from_secs(120))
            .expect("the driver answers");
        let text = format!("{head}\r\n\r\n{body}");
        let reply = serde_json::from_str::<Json>(&body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"));
        let value = reply.get("value").cloned().unwrap_or(Json::Null);
        match value.get("error") {
            Some(_) => Err(value),
            None => Ok(value),
        }
    }

    fn session_call(&self, method: &str, path: &str, body: &str) -> Json {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.session_call(
            "POST",
            "/url",
            &super::object([("url", Json::from(url))]).to_string(),
        );
    }

    /// Runs `script` (a function body) in the page; what it returns.
    pub fn run(&self, script: &str) -> Json {
        let body = super::object([
            ("script", Json::from(script)),
            ("args", Json::Array(Vec::new())),
        ]);
        self.session_call("POST", "/execute/sync", &body.to_string())
    }

    /// Waits until `script` returns something other than null or false.
    pub fn wait_for(&self, script: &str, patience: Duration) -> Json {
        let deadline = Instant::now() + patience;
        loop {
            let value = self.run(script);
            if !matches!(value, Json::Null | Json::Bool(false)) {
                return value;
            }
            if Instant::now() >= deadline {
                let page = self
                    .run("return document.body.innerText + '\\n' + JSON.stringify(window.game);");
                panic!("waited in vain for: {script}\nthe page: {page}");
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// The elements matching a CSS selector.
    pub fn find_all(&self, selector: &str) -> Vec<String> {
        let body = super::object([
            ("using", Json::from("css selector")),
            ("value", Json::from(selector)),
        ]);
        let found = self.session_call("POST", "/elements", &body.to_string());
        found
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|e| e.get_str(ELEMENT).map(str::to_string))
            .collect()
    }

    /// The one element matching a CSS selector.
    pub fn find(&self, selector: &str) -> String {
        let all = self.find_all(selector);
        assert!(!all.is_empty(), "no element {selector}");
        all[0].clone()
    }

    /// Clicks an element as a person would.
    pub fn click(&self, element: &str) {
        self.session_call("POST", &format!("/element/{element}/click"), "{}");
    }

    /// Clicks the `index`th element matching `selector` (modulo their
    /// number), finding it again if the page redrew it meanwhile.
    pub fn click_nth(&self, selector: &str, index: usize) {
        for _ in 0..20 {
            let all = self.find_all(selector);
            assert!(!all.is_empty(), "no element {selector}");
            let path = format!(
                "/session/{}/element/{}/click",
                self.session,
                all[index % all.len()]
            );
            match self.try_call("POST", &path, "{}") {
                Ok(_) => return,
                Err(e) if e.get_str("error") == Some("stale element reference") => continue,
                Err(e) => panic!("click {selector}: {e}"),
            }
        }
        panic!("{selector} kept changing under the click");
    }

    /// The text an element shows.
    pub fn text(&self, element: &str) -> String {
        let value = self.session_call("GET", &format!("/element/{element}/text"), "");
        value.as_str().unwrap_or_default().to_string()
    }

    /// Types `keys` into an element.
    pub fn type_into(&self, element: &str, keys: &str) {
        let body = super::object([("text", Json::from(keys))]);
        self.session_call(
            "POST",
            &format!("/element/{element}/value"),
            &body.to_string(),
        );
    }

    /// Resizes the window.
    pub fn resize(&self, width: u32, height: u32) {
        let body = super::object([
            ("width", Json::from(i64::from(width))),
            ("height", Json::from(i64::from(height))),
        ]);
        self.session_call("POST", "/window/rect", &body.to_string());
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let value = self.session_call("GET", "/screenshot", "");
        base64(value.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ends the browser with its session (killing the driver alone
        // would leave it running).
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = super::http(&self.address, "DELETE", &path, "", Duration::from_secs(10));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (padding and line breaks allowed).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | (u32::from(d) << (18 - 6 * i)));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
