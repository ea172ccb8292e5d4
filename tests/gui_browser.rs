//! The GUI in a real browser: headless Chromium driven through WebDriver (chromedriver) opens
//! the page, starts a game against konane-engine, plays it to the end by clicking (and once
//! by typing), and checks the board, the move list, the live engine line, stepping through
//! the moves and the game-over message.
//!
//! Needs Debian's `chromium` and `chromium-driver`; `scripts/test.sh` installs them when
//! missing. With `KONANE_SCREENSHOT=path.png` set, a screenshot of the game in progress is
//! saved there (the README's picture).

mod common;

use common::gui::Server;
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        for program in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                std::path::Path::new(program).exists(),
                "{program} is missing: install Debian's chromium and chromium-driver \
                 (scripts/test.sh does it)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// A headless browser session, once chromedriver answers.
    async fn browser(&self) -> Client {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_string(),
            serde_json::json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1280,860", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-quic"
                ]
            }),
        );
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let connected = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&self.url)
                .await;
            match connected {
                Ok(client) => return client,
                Err(error) if Instant::now() > until => panic!("no browser session: {error}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to 30 s for `check` to give a value. On a timeout, the page's status lines are
/// in the failure and its screenshot in `target/gui-failure.png`.
async fn until<T, F, Fut>(browser: &Client, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(value) = check().await {
            return value;
        }
        if Instant::now() > deadline {
            if let Ok(png) = browser.screenshot().await {
                let _ = std::fs::write(
                    concat!(env!("CARGO_MANIFEST_DIR"), "/target/gui-failure.png"),
                    png,
                );
            }
            panic!(
                "timed out waiting for {what}; status: {:?}; message: {:?}; result: {:?}",
                text(browser, "#status").await,
                text(browser, "#message").await,
                text(browser, "#result").await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(browser: &Client, css: &str) -> String {
    match browser.find(Locator::Css(css)).await {
        Ok(element) => element.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn all(browser: &Client, css: &str) -> Vec<Element> {
    browser
        .find_all(Locator::Css(css))
        .await
        .unwrap_or_default()
}

async fn click(browser: &Client, css: &str) {
    browser
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn choose(browser: &Client, select: &str, value: &str) {
    let css = format!("#{select} option[value='{value}']");
    click(browser, &css).await;
}

async fn fill(browser: &Client, input: &str, value: &str) {
    let element = browser.find(Locator::Id(input)).await.unwrap();
    element.clear().await.unwrap();
    element.send_keys(value).await.unwrap();
}

/// Waits until the board drawn has `squares` squares.
async fn board_drawn(browser: &Client, squares: usize) {
    until(
        browser,
        &format!("a board of {squares} squares"),
        || async { (all(browser, "#board g[data-square]").await.len() == squares).then_some(()) },
    )
    .await;
}

/// The number of entries in the move list.
async fn moves_listed(browser: &Client) -> usize {
    all(browser, "#moves .ply").await.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_the_engine_by_clicking() {
    let driver = Driver::start();
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let mut server = Server::start(&[engine]);
    let browser = driver.browser().await;
    browser.goto(&format!("{}/", server.url)).await.unwrap();
    board_drawn(&browser, 64).await;

    // A 6x6 game, the person Black, the engine White at 150 ms a move.
    fill(&browser, "width", "6").await;
    fill(&browser, "height", "6").await;
    choose(&browser, "black", "human").await;
    choose(&browser, "white", "konane-engine").await;
    choose(&browser, "time-kind", "movetime").await;
    fill(&browser, "time-a", "150").await;
    click(&browser, "#start").await;
    board_drawn(&browser, 36).await;
    assert!(text(&browser, "#status").await.contains("Black to remove"));

    // A removal that is not allowed is refused with the reason, and changes nothing.
    click(&browser, "#board g[data-square='a1']").await;
    let refusal = text(&browser, "#message").await;
    assert!(refusal.contains("a1 cannot be removed now"), "{refusal}");
    // A typed illegal move is refused by the server, with its reason.
    fill(&browser, "typed-move", "b2").await;
    click(&browser, "#typed button").await;
    let refusal = until(&browser, "the refusal", || async {
        let message = text(&browser, "#message").await;
        message.contains("not legal").then_some(message)
    })
    .await;
    assert!(refusal.contains("b2 is not legal here"), "{refusal}");
    // The first removal is typed, the rest of the game clicked.
    fill(&browser, "typed-move", "a6").await;
    click(&browser, "#typed button").await;

    let mut clicks = 0;
    let mut saw_live = false;
    let mut screenshot_taken = std::env::var_os("KONANE_SCREENSHOT").is_none();
    loop {
        let turn = until(&browser, "the person's turn or the end", || async {
            if !text(&browser, "#result").await.is_empty() {
                return Some(None);
            }
            let movable = all(&browser, "#board g.movable").await;
            match movable.first() {
                Some(first) => Some(Some(first.attr("data-square").await.unwrap().unwrap())),
                None => None,
            }
        })
        .await;
        let figures = text(&browser, "#live-figures").await;
        let who = text(&browser, "#live-who").await;
        if who.contains("konane-engine") && figures.contains("depth") {
            saw_live = true;
        }
        let Some(square) = turn else { break };
        let listed = moves_listed(&browser).await;
        if !screenshot_taken && listed >= 8 {
            let path = std::env::var("KONANE_SCREENSHOT").unwrap();
            click(&browser, &format!("#board g[data-square='{square}']")).await;
            std::fs::write(&path, browser.screenshot().await.unwrap()).unwrap();
            screenshot_taken = true;
            click(&browser, &format!("#board g[data-square='{square}']")).await;
        }
        click(&browser, &format!("#board g[data-square='{square}']")).await;
        let removal = text(&browser, "#status").await.contains("remove");
        if !removal {
            // The chosen stone shows where it may land: click the first landing square.
            let target = until(&browser, "a landing square", || async {
                let marks = all(&browser, "#board [data-target]").await;
                match marks.first() {
                    Some(mark) => mark.attr("data-target").await.unwrap(),
                    None => None,
                }
            })
            .await;
            click(&browser, &format!("#board g[data-square='{target}']")).await;
        }
        clicks += 1;
        until(&browser, "the move in the list", || async {
            (moves_listed(&browser).await > listed).then_some(())
        })
        .await;
        assert!(clicks < 40, "the game does not end");
    }
    assert!(clicks >= 2, "only {clicks} moves were clicked");
    assert!(saw_live, "the engine's live line was never shown");
    let result = text(&browser, "#result").await;
    assert!(result.contains(" wins: "), "{result}");
    let listed = moves_listed(&browser).await;
    let state = server.state();
    assert_eq!(listed, state["moves"].as_array().unwrap().len());
    // The board drawn is the server's position.
    let stones = all(&browser, "#board g[data-stone='b']").await.len()
        + all(&browser, "#board g[data-stone='w']").await.len();
    let expected: usize = state["shown"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rank| rank.as_str().unwrap().chars().filter(|c| *c != '.').count())
        .sum();
    assert_eq!(stones, expected);

    // Stepping back through the game shows earlier positions.
    click(&browser, "#first").await;
    until(&browser, "the start position", || async {
        (all(&browser, "#board g[data-stone='.']").await.is_empty()).then_some(())
    })
    .await;
    click(&browser, "#forward").await;
    until(&browser, "the first move marked", || async {
        let current = text(&browser, "#moves .ply.current").await;
        (current == "a6").then_some(())
    })
    .await;

    // A position string loaded under `turning`: two paths from a1 land on c3, and the page
    // asks which.
    choose(&browser, "capture", "turning").await;
    choose(&browser, "white", "human").await;
    fill(&browser, "fen", "4/1w2/w1w1/bw2 b").await;
    click(&browser, "#start").await;
    board_drawn(&browser, 16).await;
    click(&browser, "#board g[data-square='a1']").await;
    click(&browser, "#board g[data-square='c3']").await;
    let paths = until(&browser, "the choice of paths", || async {
        let buttons = all(&browser, "#choices .path-choice").await;
        (buttons.len() == 2).then_some(buttons)
    })
    .await;
    let mut labels = Vec::new();
    for button in &paths {
        labels.push(button.text().await.unwrap());
    }
    let via_c1 = labels.iter().position(|l| l == "a1\u{2192}c1\u{2192}c3");
    assert!(
        labels.contains(&"a1\u{2192}a3\u{2192}c3".to_string()),
        "{labels:?}"
    );
    paths[via_c1.expect("a path through c1")]
        .click()
        .await
        .unwrap();
    until(&browser, "the chosen path played", || async {
        let listed = text(&browser, "#moves .ply").await;
        (listed == "a1c1c3").then_some(())
    })
    .await;
    assert_eq!(server.state()["moves"], serde_json::json!(["a1c1c3"]));

    browser.close().await.unwrap();
    assert_eq!(server.stop(), Some(0));
}
