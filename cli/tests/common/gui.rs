//! Driving `konane-arbiter gui` in tests: a server on a free port, stopped with Ctrl-C's
//! signal when dropped, and its JSON endpoints.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running GUI server.
pub struct Server {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    agent: ureq::Agent,
}

/// An answer: the status and the JSON body.
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Server {
    /// Starts the server with `engines` (space-separated `--engine` words each).
    pub fn start(engines: &[String]) -> Server {
        Server::start_with(engines, &["--port", "0"])
    }

    /// Starts the server with `engines` and these arguments besides.
    pub fn start_with(engines: &[String], arguments: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"));
        command.arg("gui").args(arguments);
        for engine in engines {
            command.arg("--engine").args(engine.split(' '));
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Server {
            child: Some(child),
            url,
            agent,
        }
    }

    /// `GET path`, as text.
    pub fn get_text(&self, path: &str) -> (u16, String) {
        let mut response = self
            .agent
            .get(format!("{}{path}", self.url))
            .call()
            .unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    }

    /// `GET path`, as JSON.
    pub fn get(&self, path: &str) -> Value {
        let (status, text) = self.get_text(path);
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// `POST path` with `body` sent as JSON.
    pub fn post(&self, path: &str, body: &str) -> Answer {
        self.post_as(path, body, "application/json")
    }

    /// `POST path` with `body` and this content type.
    pub fn post_as(&self, path: &str, body: &str, content_type: &str) -> Answer {
        let mut response = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("Content-Type", content_type)
            .send(body)
            .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        Answer {
            status,
            body: serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
        }
    }

    /// The game's state now.
    pub fn state(&self) -> Value {
        self.get("/api/state")
    }

    /// The plies the game has now.
    pub fn plies(&self) -> usize {
        self.state()["moves"].as_array().map_or(0, Vec::len)
    }

    /// Opens the live stream as a page does; the page counts as open until it is dropped.
    pub fn open_page(&self) -> impl std::io::Read + use<> {
        let response = self
            .agent
            .get(format!("{}/api/events", self.url))
            .call()
            .unwrap();
        response.into_body().into_reader()
    }

    /// Stops the server as Ctrl-C does and waits for it; its exit code.
    pub fn stop(&mut self) -> Option<i32> {
        let mut child = self.child.take()?;
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT);
        child.wait().ok()?.code()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A new-game request body.
pub fn new_game(size: u8, black: &str, white: &str, time: &str) -> String {
    format!(
        r#"{{"width":{size},"height":{size},"opening":"traditional","capture":"straight","black":"{black}","white":"{white}","time":{time}}}"#
    )
}
