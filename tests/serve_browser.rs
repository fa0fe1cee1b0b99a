//! The page of `fanorona serve` in a real browser: headless Chromium driven through
//! chromedriver (WebDriver, fantoccini) plays a short game by clicking (a capture chain with
//! an approach-or-withdrawal choice, undo, the result shown) and watches two agents play; the
//! agents on offer are listed strongest first. Another game is played by keyboard only, each
//! point read out by its label, and the analysis board shows ever deeper evaluations of a
//! position, steps back through the game and plays on from there.
//! Needs Debian's chromium and chromium-driver: `scripts/ensure-chromium` installs them.
//! With `FANORONA_SCREENSHOTS=1` the screenshots are saved under docs/ (for the README).

mod common;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::{CHAIN_FEN, Server};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        assert!(
            Path::new(CHROMEDRIVER).is_file() && Path::new(CHROMIUM).is_file(),
            "{CHROMEDRIVER} or {CHROMIUM} is missing: run scripts/ensure-chromium \
             (installs Debian's chromium and chromium-driver)"
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium session with a fresh profile in `profile`.
async fn browser(driver: &Driver, profile: &Path) -> Client {
    let args = [
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--window-size=1100,800".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a chromedriver session")
}

/// The page as the test sees it.
struct Page {
    client: Client,
}

impl Page {
    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    async fn text(&self, id: &str) -> String {
        let script = format!("return document.getElementById('{id}').textContent");
        self.js(&script)
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until no request or animation is under way and `script` returns true.
    async fn wait_for(&self, what: &str, script: &str) {
        let started = Instant::now();
        let check = format!("return document.body.dataset.busy === '0' && ({script})");
        while self.js(&check).await != Value::Bool(true) {
            if started.elapsed() > Duration::from_secs(20) {
                panic!(
                    "timed out waiting for {what}; status {:?}, error {:?}",
                    self.text("status").await,
                    self.text("error").await
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Clicks the point `name` of the board and waits until the page is idle.
    async fn click_point(&self, name: &str) {
        self.click(&format!("[data-point='{name}']")).await;
        self.wait_for(&format!("the click on {name}"), "true").await;
    }

    async fn pieces(&self) -> Vec<String> {
        let script = "return [...document.querySelectorAll('[data-piece]')]\
                      .map(p => p.dataset.color + p.dataset.piece)";
        let list = self.js(script).await;
        let mut pieces: Vec<String> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        pieces.sort();
        pieces
    }

    async fn set(&self, id: &str, value: &str) {
        let script = format!(
            "const e = document.getElementById('{id}'); e.value = {}; \
             e.dispatchEvent(new Event('change')); return true",
            Value::String(value.into())
        );
        self.js(&script).await;
    }

    /// Presses `keys` one after the other, as a person at the keyboard, then waits until the
    /// page is idle.
    async fn press(&self, keys: &[char]) {
        let mut actions = KeyActions::new("keyboard".into());
        for &value in keys {
            actions = actions
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.client.perform_actions(actions).await.unwrap();
        self.client.release_actions().await.unwrap();
        self.wait_for(&format!("the keys {keys:?}"), "true").await;
    }

    /// Presses Shift+Tab: the focus goes to the element before.
    async fn shift_tab(&self) {
        let (shift, tab) = (Key::Shift.into(), Key::Tab.into());
        let actions = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: shift })
            .then(KeyAction::Down { value: tab })
            .then(KeyAction::Up { value: tab })
            .then(KeyAction::Up { value: shift });
        self.client.perform_actions(actions).await.unwrap();
        self.client.release_actions().await.unwrap();
    }

    /// The label a screen reader reads for the focused element.
    async fn focused(&self) -> String {
        let label = self
            .js("return document.activeElement.getAttribute('aria-label')")
            .await;
        label.as_str().unwrap_or_default().to_string()
    }

    async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        assert_eq!(&png[1..4], b"PNG");
        if std::env::var_os("FANORONA_SCREENSHOTS").is_some() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(name);
            std::fs::write(&path, png).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_by_clicks_and_two_agents_watched_in_headless_chromium() {
    let server = Server::start(&["--agent", "random"]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let page = Page {
        client: browser(&driver, profile.path()).await,
    };
    page.client.goto(&server.url).await.unwrap();
    page.wait_for(
        "the first game",
        "document.getElementById('fen-out').value !== ''",
    )
    .await;
    assert_eq!(page.pieces().await.len(), 44);
    assert!(page.text("status").await.contains("white to move"));
    // The kinds on offer, strongest first, each with its strength in words.
    let kinds = page.text("kinds").await;
    assert!(kinds.starts_with("Agents, strongest first: "), "{kinds}");
    let minimax = kinds.find("minimax (").unwrap();
    assert!(kinds.find("random (").unwrap() > minimax, "{kinds}");
    assert!(kinds.contains("the weakest"), "{kinds}");
    page.screenshot("serve-start.png").await;

    // A 5x3 position against random: white wins with one chain.
    page.set("fen-in", CHAIN_FEN).await;
    page.set("agent", "random").await;
    page.click("#start").await;
    page.wait_for(
        "the 5x3 game",
        "document.querySelectorAll('[data-piece]').length === 6",
    )
    .await;
    assert_eq!(
        page.pieces().await,
        ["Ba1", "Ba2", "Bc3", "Bd1", "Be1", "Wb1"]
    );
    page.click_point("b1").await;
    let targets = page
        .js("return document.querySelectorAll('[data-target]').length")
        .await;
    assert_eq!(targets, json!(1), "b1 may go to c1 only");
    page.click_point("c1").await;
    // Both captures are possible: the prompt shows, the two lines are marked.
    assert_eq!(
        page.js("return document.getElementById('choice').hidden")
            .await,
        json!(false)
    );
    let marked = "return [...document.querySelectorAll('.capture-approach, .capture-withdrawal')]\
                  .map(p => p.dataset.piece).sort()";
    assert_eq!(page.js(marked).await, json!(["a1", "d1", "e1"]));
    page.screenshot("serve-choice.png").await;
    // Choose withdrawal with the prompt, undo it, then choose approach by clicking its line.
    page.click("#choose-withdrawal").await;
    page.wait_for("the withdrawal", "true").await;
    assert!(!page.pieces().await.contains(&"Ba1".to_string()));
    page.click("#undo").await;
    page.wait_for(
        "undo",
        "document.querySelectorAll('[data-piece]').length === 6",
    )
    .await;
    page.click_point("b1").await;
    page.click_point("c1").await;
    page.click_point("d1").await;
    assert_eq!(page.pieces().await, ["Ba1", "Ba2", "Bc3", "Wc1"]);
    assert!(
        page.text("status")
            .await
            .contains("continue the capture chain with c1")
    );
    let stop_enabled = page
        .js("return !document.getElementById('stop').disabled")
        .await;
    assert_eq!(stop_enabled, json!(true));
    page.screenshot("serve-chain.png").await;
    for point in ["c2", "b2", "c3"] {
        page.click_point(point).await;
    }
    assert_eq!(page.pieces().await, ["Wc3"]);
    assert!(
        page.text("result").await.starts_with("1-0"),
        "{}",
        page.text("result").await
    );
    assert_eq!(page.text("moves").await, "b1c1Ac2Ab2Ac3W");

    // Watch: two agents play a 3x3 game to its end at full speed.
    page.set("fen-in", "").await;
    page.set("mode", "watch").await;
    page.set("board-size", "3x3").await;
    page.set("white-agent", "minimax:depth=2").await;
    page.set("black-agent", "greedy").await;
    page.set("speed", "0").await;
    page.click("#start").await;
    let ended = "document.querySelectorAll('[data-point]').length === 9 \
                 && document.getElementById('result').textContent !== ''";
    page.wait_for("the watched game's end", ended).await;
    let result = page.text("result").await;
    assert!(
        ["1-0", "0-1", "1/2-1/2"]
            .iter()
            .any(|r| result.starts_with(r)),
        "{result}"
    );
    let moves = page
        .js("return document.querySelectorAll('#moves li').length")
        .await;
    assert!(moves.as_u64().unwrap() >= 1);
    // On a phone-sized window the board shrinks to fit.
    page.client.set_window_size(390, 844).await.unwrap();
    let fits = "const r = document.getElementById('board').getBoundingClientRect(); \
                return r.width > 200 && r.right <= document.documentElement.clientWidth";
    assert_eq!(page.js(fits).await, json!(true));
    page.client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_by_keyboard_and_an_analysis_board_in_headless_chromium() {
    let server = Server::start(&["--agent", "random"]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let page = Page {
        client: browser(&driver, profile.path()).await,
    };
    page.client.goto(&server.url).await.unwrap();
    page.wait_for(
        "the first game",
        "document.getElementById('fen-out').value !== ''",
    )
    .await;
    // A refused request is shown, not swallowed.
    page.set("fen-in", "not a fen").await;
    page.click("#start").await;
    page.wait_for(
        "the error",
        "document.getElementById('error').textContent !== ''",
    )
    .await;
    assert!(
        page.text("error").await.contains("FEN"),
        "{}",
        page.text("error").await
    );

    // The 5x3 chain against random, by keyboard only: Tab to the board, arrows and Enter.
    page.set("fen-in", CHAIN_FEN).await;
    page.click("#start").await;
    page.wait_for(
        "the 5x3 game",
        "document.querySelectorAll('[data-piece]').length === 6",
    )
    .await;
    assert_eq!(page.text("error").await, "");
    let size = page
        .js("return document.getElementById('board-size').value")
        .await;
    assert_eq!(
        size,
        json!("5x3"),
        "the board selector shows the FEN's board"
    );
    // From the start button back to the board, whose first piece to move has the focus.
    let mut tabs = 0;
    while !page.focused().await.starts_with("b1") {
        page.shift_tab().await;
        tabs += 1;
        assert!(tabs < 40, "Shift+Tab never reaches the board");
    }
    assert_eq!(page.focused().await, "b1, white piece, can move");
    page.press(&[Key::Enter.into()]).await;
    assert_eq!(page.focused().await, "b1, white piece, can move, selected");
    page.press(&[Key::Right.into()]).await;
    assert_eq!(page.focused().await, "c1, empty, move here");
    page.press(&[' ']).await;
    // Both captures are possible: A chooses approach (W would choose withdrawal).
    assert!(page.text("status").await.contains("approach (A)"));
    page.press(&[Key::Right.into()]).await;
    assert_eq!(
        page.focused().await,
        "d1, black piece, captured by approach"
    );
    page.press(&['a']).await;
    assert_eq!(page.pieces().await, ["Ba1", "Ba2", "Bc3", "Wc1"]);
    assert!(page.text("status").await.contains("capture chain with c1"));
    // The chain from c1 (the focus on d1): to c2, to b2, to c3, each by arrows and Enter.
    let (up, left, right) = (Key::Up.into(), Key::Left.into(), Key::Right.into());
    let enter = Key::Enter.into();
    page.press(&[left, up, enter]).await;
    page.press(&[left, enter]).await;
    page.press(&[up, right, enter]).await;
    assert_eq!(page.pieces().await, ["Wc3"]);
    assert!(page.text("result").await.starts_with("1-0"));
    assert_eq!(page.text("moves").await, "b1c1Ac2Ab2Ac3W");

    // The analysis board: two people on 9x5, one turn, then the position analysed.
    page.set("fen-in", "").await;
    page.set("mode", "people").await;
    page.set("board-size", "9x5").await;
    page.click("#start").await;
    page.wait_for(
        "the 9x5 game",
        "document.querySelectorAll('[data-piece]').length === 44",
    )
    .await;
    page.click_point("d3").await;
    page.click_point("e3").await;
    page.click("#choose-approach").await;
    page.wait_for(
        "the first turn",
        "document.getElementById('moves').textContent === 'd3e3A'",
    )
    .await;
    page.set("analysis-agent", "minimax").await;
    page.click("#analyse").await;
    let three = "document.querySelectorAll('#analysis-iterations li').length >= 3";
    page.wait_for("three iterations", three).await;
    let verdict = page.text("analysis-verdict").await;
    let depth: u32 = verdict
        .split("(depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {verdict:?}"));
    assert!(depth >= 3, "{verdict}");
    assert!(verdict.contains("white's expected score"), "{verdict}");
    let best = page.text("analysis-line").await;
    assert!(best.starts_with("best line: "), "{best}");
    // The prover's answer came first: an opening is not settled within the default nodes.
    let proof = page.text("analysis-proof").await;
    assert_eq!(proof, "not proven within 10000 nodes");
    let depths = page
        .js(
            "return [...document.querySelectorAll('#analysis-iterations li')]\
             .slice(-3).map(li => li.dataset.iteration)",
        )
        .await;
    assert_eq!(depths, json!(["3", "2", "1"]), "deepest first");
    // The board and the analysis in one view for the screenshot: the new-game form folded.
    page.client.set_window_size(1200, 900).await.unwrap();
    page.js("document.getElementById('newgame').open = false; window.scrollTo(0, 0); return true")
        .await;
    page.screenshot("serve-analysis.png").await;
    // One turn back: the start position is shown and analysed afresh.
    page.click("#line-back").await;
    page.wait_for(
        "the start position",
        "document.getElementById('line-ply').textContent === 'game: after 0 of 1 turns'",
    )
    .await;
    assert_eq!(page.pieces().await.len(), 44);
    assert!(page.text("status").await.starts_with("analysis board"));
    page.wait_for("its analysis", three).await;
    // A click on the move goes back to the game after it, then to the start again.
    page.click("#moves .move[data-ply='1']").await;
    page.wait_for(
        "the game again",
        "document.getElementById('line-game').hidden && \
         document.getElementById('status').textContent === 'black to move'",
    )
    .await;
    page.click("#line-first").await;
    page.wait_for(
        "the start again",
        "document.getElementById('line-ply').textContent === 'game: after 0 of 1 turns'",
    )
    .await;
    // Play from here against an agent: the board follows the new game again.
    page.set("agent", "random").await;
    page.click("#play-here").await;
    page.wait_for(
        "the game from here",
        "document.getElementById('line-game').hidden && \
         document.getElementById('status').textContent === 'white to move'",
    )
    .await;
    assert_eq!(page.text("moves").await, "");
    page.click("#analyse").await;
    page.wait_for(
        "the analysis stopped",
        "document.getElementById('analysis-end').textContent.includes('stopped')",
    )
    .await;
    assert_eq!(page.text("error").await, "");
    page.client.close().await.unwrap();
}
