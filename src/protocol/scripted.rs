//! Test support: runs a program that speaks the protocol (the engine, a bot) on input the test
//! feeds a chunk at a time and output that can hold a chosen line back, so that a test can
//! place each command exactly where a race would put it.

use crate::protocol::io::Output;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::io::{BufRead, Cursor, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Input fed by a [`Script`]; each time it runs dry it says how many chunks it has handed
/// over, which the reading thread has then dealt with (answered, acted on, or queued for the
/// worker) line by line.
pub struct Fed {
    chunks: Receiver<String>,
    taken_up: Sender<usize>,
    received: usize,
    pending: Cursor<Vec<u8>>,
}

impl Read for Fed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let taken = available.len().min(buf.len());
        buf[..taken].copy_from_slice(&available[..taken]);
        self.consume(taken);
        Ok(taken)
    }
}

impl BufRead for Fed {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pending.position() as usize == self.pending.get_ref().len() {
            let _ = self.taken_up.send(self.received);
            let chunk = self.chunks.recv().unwrap_or_default();
            self.received += 1;
            self.pending = Cursor::new(chunk.into_bytes());
        }
        self.pending.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.pending.consume(amount)
    }
}

/// Picks the lines a [`Script`] holds back.
pub type LineTest = fn(&str) -> bool;

/// Output that keeps every line, and stops at each line `hold` picks until the test lets it
/// go (the program's thread waits inside its write meanwhile).
struct Holding {
    written: Arc<Mutex<Vec<u8>>>,
    hold: LineTest,
    held: Sender<()>,
    release: Receiver<()>,
}

impl Write for Holding {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if (self.hold)(&String::from_utf8_lossy(bytes)) {
            let _ = self.held.send(());
            let _ = self.release.recv();
        }
        let mut written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        written.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The test's side of a program run on [`Fed`] input and holding output.
pub struct Script {
    feed: Option<Sender<String>>,
    fed: usize,
    taken_up: Receiver<usize>,
    held: Receiver<()>,
    release: Sender<()>,
    written: Arc<Mutex<Vec<u8>>>,
    program: Option<JoinHandle<()>>,
}

impl Script {
    /// Starts `program` on its own thread; lines for which `hold` is true wait for
    /// [`Script::release`].
    pub fn start(hold: LineTest, program: impl FnOnce(Fed, Output) + Send + 'static) -> Script {
        let (feed, chunks) = unbounded();
        let (taken_up_sender, taken_up) = unbounded();
        let (held_sender, held) = unbounded();
        let (release, release_receiver) = unbounded();
        let written = Arc::new(Mutex::new(Vec::new()));
        let input = Fed {
            chunks,
            taken_up: taken_up_sender,
            received: 0,
            pending: Cursor::new(Vec::new()),
        };
        let output = Output::new(Holding {
            written: written.clone(),
            hold,
            held: held_sender,
            release: release_receiver,
        });
        let program = std::thread::spawn(move || program(input, output));
        Script {
            feed: Some(feed),
            fed: 0,
            taken_up,
            held,
            release,
            written,
            program: Some(program),
        }
    }

    /// Feeds `text` and returns once the program's reading thread has dealt with all of it
    /// (a queued command may still wait for the worker).
    pub fn send(&mut self, text: &str) {
        if let Some(feed) = &self.feed {
            feed.send(text.to_string())
                .expect("the program reads its input");
            self.fed += 1;
            while self.taken_up.recv().expect("the program asks for input") < self.fed {}
        }
    }

    /// Waits until the program is writing a held line.
    pub fn wait_held(&self) {
        self.held.recv().expect("the program writes a held line");
    }

    /// Lets the held line go.
    pub fn release(&self) {
        let _ = self.release.send(());
    }

    /// Sends `go infinite` while a line is held, lets the line go, then sends `isready` and,
    /// once `readyok` came (or 10 s passed), `stop`: where `readyok` lands in the output says
    /// whether the program still knew it was searching.
    pub fn isready_in_a_search_sent_before_the_held_line(&mut self) {
        self.send("go infinite\n");
        self.release();
        self.send("isready\n");
        self.wait_for("readyok", Duration::from_secs(10));
        self.send("stop\n");
    }

    /// Waits until the output holds `text`, or `limit` has passed (the test's assertions on
    /// the output then tell what went wrong).
    pub fn wait_for(&self, text: &str, limit: Duration) {
        let waited = Instant::now();
        while !self.text().contains(text) && waited.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn text(&self) -> String {
        let written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&written).into_owned()
    }

    /// Ends the input, waits for the program to finish and returns its output lines.
    pub fn finish(mut self) -> Vec<String> {
        self.feed = None;
        if let Some(program) = self.program.take() {
            program.join().expect("the program ends without panicking");
        }
        self.text().lines().map(str::to_string).collect()
    }
}
