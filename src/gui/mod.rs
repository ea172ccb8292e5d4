//! `konane-arbiter gui`: a local web page to play, watch and analyse with any UCI/UGI engine.
//!
//! The server is the referee: `session` keeps the [`game`] on a thread of its own, checks
//! every move with the rules library and drives the engines through the arbiter's process
//! layer (and the `analysis` engine); `api` turns HTTP requests into the session's
//! requests and streams its state to the page; `view` and `info` say what the page is
//! sent. The page only draws and sends intents, and steps through the game on its own.

pub(crate) mod analysis;
pub(crate) mod api;
pub(crate) mod exact;
pub mod game;
pub(crate) mod info;
pub(crate) mod notes;
pub(crate) mod series;
pub(crate) mod session;
pub(crate) mod tree;
pub(crate) mod view;

use crate::arbiter::game::Deadlines;
use crate::arbiter::log::Log;
use crate::arbiter::spec::EngineSpec;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How many of the last lines to and from the engines the page's engine log can show.
const LOG_LINES: usize = 2000;

/// Everything the server needs.
pub struct Settings {
    /// The engines the page may choose from (names unique); the browser can pick no other.
    pub engines: Vec<EngineSpec>,
    /// The address to listen on.
    pub host: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The options each engine announced at start, in the order of `engines`.
    pub announced: Vec<Vec<crate::protocol::options::EngineOption>>,
    /// The engines' deadlines.
    pub deadlines: Deadlines,
    /// `--log`.
    pub log: Log,
}

/// Serves the page until `interrupted` is set, telling `listening` its address once it
/// listens; then stops every engine and returns once none is left.
pub fn serve(
    settings: Settings,
    interrupted: Arc<AtomicBool>,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let address = SocketAddr::new(settings.host, settings.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        let (session, running) = session::start(
            settings.engines,
            settings.announced,
            settings.deadlines,
            settings.log.remembering(LOG_LINES),
        );
        listening(address);
        let stopping = Arc::new(std::sync::Mutex::new(Some(running)));
        let on_stop = stopping.clone();
        let shutdown = async move {
            while !interrupted.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Ending the session closes the live streams, so the server can finish.
            let running = on_stop.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(running) = running {
                tokio::task::spawn_blocking(move || running.shut_down())
                    .await
                    .ok();
            }
        };
        let served = axum::serve(listener, api::router(session, address.ip().is_loopback()))
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(|e| format!("the server failed: {e}"));
        let running = stopping.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(running) = running {
            running.shut_down();
        }
        served
    })
}
