//! The page of `orca web` in a real browser (headless Chromium through
//! chromedriver): a whole game against level 1 played by clicking squares,
//! undo, hints, and screenshots of a desktop-sized and a phone-sized window
//! under `target/web-screenshots/` to look at.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::webdriver::{Browser, CHROMEDRIVER};
use common::{Json, JsonExt};
use common::{Orca, PATIENCE, random_game, state_moves};
use orca::game::{AnyMove, AnyPosition, Variant};

/// Where the screenshots go.
fn screenshots() -> PathBuf {
    // CARGO_TARGET_TMPDIR is target/tmp.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target")
        .join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn save(browser: &Browser, name: &str) {
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(screenshots().join(name), png).unwrap();
}

/// The page's game state.
fn state(browser: &Browser) -> Json {
    browser.run("return game;")
}

/// `orca web` with `args` and its page in a 1280x900 browser window; none
/// where the browser is missing (skipped, except under CI=true, where
/// .ci/run installs it and a missing one is a failure).
fn open_page(args: &[&str]) -> Option<(Orca, Browser)> {
    if !Browser::available() {
        assert!(
            std::env::var_os("CI").is_none_or(|v| v != "true"),
            "CI=true and no {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
        );
        eprintln!("skipped: no {CHROMEDRIVER} (apt-get install chromium chromium-driver)");
        return None;
    }
    let mut all = vec!["web", "--port", "0"];
    all.extend_from_slice(args);
    let orca = Orca::start(&all);
    let line = orca.recv();
    let url = line
        .strip_prefix("Orca web: ")
        .expect("the address")
        .to_string();
    let browser = Browser::start(1280, 900);
    browser.open(&url);
    Some((orca, browser))
}

#[test]
fn play_a_whole_game_in_the_browser() {
    let Some((_orca, browser)) = open_page(&[]) else {
        return;
    };
    browser.wait_for(
        "return typeof game !== 'undefined' && game !== null;",
        PATIENCE,
    );
    // Level 1, a time a move of one's own (0.2 s), then a new game.
    browser.run(
        "const level = document.getElementById('level'); level.value = '1';
         level.dispatchEvent(new Event('input'));
         const time = document.getElementById('movetime'); time.value = 'other';
         time.dispatchEvent(new Event('change'));",
    );
    let seconds = browser.find("#movetime-seconds");
    browser.run("document.getElementById('movetime-seconds').value = '';");
    browser.type_into(&seconds, "0.2");
    browser.click(&browser.find("#new"));
    browser.wait_for(
        "return game && game.level === 1 && game.movetime_ms === 200;",
        PATIENCE,
    );

    // Click a legal square whenever it is the person's turn.
    let mut clicks = 0;
    loop {
        let ready = browser.wait_for(
            "return game.over ? 'over'
                 : (game.to_move === 'black' && !game.thinking
                    && document.querySelectorAll('rect.square.legal').length > 0) ? 'move' : null;",
            Duration::from_secs(120),
        );
        if ready.as_str() == Some("over") {
            break;
        }
        let before = state_moves(&state(&browser)).len();
        browser.click_nth("rect.square.legal", clicks);
        clicks += 1;
        browser.wait_for(&format!("return game.moves.length > {before};"), PATIENCE);
        assert!(clicks < 70, "too many moves");
    }
    let end = state(&browser);
    let played = state_moves(&end);
    let position = AnyPosition::start(Variant::Othello)
        .play_line(played.iter().map(String::as_str))
        .unwrap();
    assert!(position.is_over());
    assert_eq!(end.get_str("position"), Some(position.to_string().as_str()));
    // What the page shows: the move list, the discs, the result.
    assert_eq!(
        browser.find_all("#moves li:not(.start)").len(),
        played.len()
    );
    let (black, white) = position.counts();
    assert_eq!(
        browser.text(&browser.find("#discs")),
        format!("Black {black} - White {white}")
    );
    let status = browser.text(&browser.find("#status"));
    let winner = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "Black wins",
        std::cmp::Ordering::Less => "White wins",
        std::cmp::Ordering::Equal => "Draw",
    };
    assert!(status.starts_with(winner), "{status} ({black}-{white})");
    // The graph is drawn during play from Orca's own estimates.
    let estimates = browser.run(
        "return document.getElementById('graph').hidden ? -1
            : document.querySelectorAll('#graph circle.estimate').length;",
    );
    assert!(estimates.as_i64().unwrap_or(-1) > 0, "{estimates}");
    save(&browser, "desktop-game-over.png");

    // Undo goes back to the last position where the person was to move.
    browser.click(&browser.find("#undo"));
    let undone = browser.wait_for(
        "return game.cursor < game.moves.length ? game : null;",
        PATIENCE,
    );
    assert_eq!(undone.get_str("to_move"), Some("black"));
    assert!(
        browser
            .text(&browser.find("#status"))
            .contains("going back")
    );

    // Hints: a new game between two people, every opening move valued.
    browser.run("document.getElementById('white').value = 'person';");
    browser.click(&browser.find("#new"));
    browser.wait_for(
        "return game && game.moves.length === 0 && game.white === 'person';",
        PATIENCE,
    );
    // Hints until stopped (the page's default is a 10-ply search).
    browser.run(
        "const depth = document.getElementById('hint-depth'); depth.value = '0';
         depth.dispatchEvent(new Event('change'));",
    );
    browser.click(&browser.find("#hints"));
    browser.wait_for(
        "return document.querySelectorAll('#board text.hint').length === 4
            && document.querySelectorAll('#board text.book').length === 4;",
        PATIENCE,
    );
    // The book's values show without a search: drawn with no search info.
    let book = browser.run(
        "info = null; drawn = ''; drawBoard();
         return document.querySelectorAll('#board text.hint.book-value').length;",
    );
    assert_eq!(book.as_i64(), Some(4), "the book's values without a search");
    save(&browser, "desktop-hints.png");
    // The board has its coordinates; the set-up's side is hidden.
    let coordinates = browser.run("return document.querySelectorAll('#board text.coord').length;");
    assert_eq!(coordinates.as_i64(), Some(16));
    let hidden = browser.run("return document.getElementById('setup-side').offsetParent === null;");
    assert_eq!(
        hidden,
        Json::Bool(true),
        "the set-up's side shows outside a set-up"
    );
    // Stop keeps the hint values found so far.
    browser.click(&browser.find("#stop"));
    browser.wait_for(
        "return game.thinking === null
            && document.querySelectorAll('#board text.hint').length === 4;",
        PATIENCE,
    );
    // Shortcut keys are inert while typing in a text field.
    browser.type_into(&browser.find("#game-text"), "rsmu");
    let typed = browser
        .run("return [document.getElementById('game-text').value, game.cursor, game.thinking];");
    assert_eq!(typed, serde_json::json!(["rsmu", 0, null]));
    browser.run("document.getElementById('game-text').value = '';");
    // A refused typed move stays in its box, to be corrected.
    browser.type_into(&browser.find("#move-text"), "a1\n");
    browser.wait_for(
        "return document.getElementById('error').textContent.includes('a1') ? true : null;",
        PATIENCE,
    );
    let kept = browser.run("return document.getElementById('move-text').value;");
    assert_eq!(kept.as_str(), Some("a1"));
    browser.run("document.getElementById('move-text').value = '';");
    // A typed move plays as a click does.
    browser.type_into(&browser.find("#move-text"), "f5\n");
    browser.wait_for(
        "return game.moves.length === 1 && game.moves[0].move === 'f5';",
        PATIENCE,
    );
    // Copy: the moves go to the clipboard, or where the clipboard is
    // refused, into the game box.
    browser.click(&browser.find("#copy"));
    let copied = browser.wait_for(
        "const said = document.getElementById('copy').textContent;
         return said === 'Copy' ? null : [said, document.getElementById('game-text').value];",
        PATIENCE,
    );
    match copied[0].as_str() {
        Some("Copied") => {}
        Some("In the game box") => assert_eq!(copied[1].as_str(), Some("f5")),
        _ => panic!("{copied}"),
    }
    browser.run("document.getElementById('game-text').value = '';");
    // Going through the game: the buttons and the arrow keys.
    browser.click(&browser.find("#back"));
    browser.wait_for("return game.cursor === 0;", PATIENCE);
    browser.run("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));");
    browser.wait_for("return game.cursor === 1;", PATIENCE);
    // Flipped, the board is turned half round.
    browser.click(&browser.find("#flip"));
    browser.wait_for(
        "return document.querySelector(\"rect[data-square='a1']\").getAttribute('x') === '7' ? true : null;",
        PATIENCE,
    );
    browser.click(&browser.find("#flip"));
    // A reload shows the same game.
    let before = browser.run("return game.id;");
    browser.run("location.reload();");
    browser.wait_for(
        &format!("return typeof game !== 'undefined' && game !== null && game.id === {before} && game.moves.length === 1;"),
        PATIENCE,
    );

    // A GGF record pasted and loaded, analysed: the graph has a point for
    // every position, the last the final score; mistakes are marked.
    let (list, end) = random_game(5);
    let moves_played: Vec<&str> = list.split(' ').collect();
    let mut record = orca::ggf::GgfGame::new(AnyPosition::start(Variant::Othello));
    let mut position = AnyPosition::start(Variant::Othello);
    for mv in &moves_played {
        let mv = position.parse_move(mv).unwrap();
        let AnyMove::Othello(othello) = mv else {
            unreachable!("an Othello move")
        };
        record.moves.push(orca::ggf::GgfMove {
            color: position.to_move(),
            mv: othello,
            eval: None,
            seconds: None,
        });
        position = position.play(mv).unwrap();
    }
    let ggf = Json::from(record.to_string());
    browser.run(&format!(
        "document.getElementById('game-text').value = {ggf};"
    ));
    browser.click(&browser.find("#load"));
    browser.wait_for(
        &format!("return game.moves.length === {};", moves_played.len()),
        PATIENCE,
    );
    browser.click(&browser.find("#analyze"));
    let analysed = browser.wait_for(
        "return !game.analysing && game.values.every((v) => v !== null) ? game : null;",
        Duration::from_secs(120),
    );
    let values = analysed.get("values").and_then(Json::as_array).unwrap();
    let points = browser.run("return document.querySelector('#graph polyline').dataset.points;");
    assert_eq!(points.as_str(), Some(values.len().to_string().as_str()));
    assert_eq!(
        values.last().and_then(Json::as_f64),
        Some(f64::from(end.black_score().unwrap()))
    );
    let marked = browser.run(
        "return [...document.querySelectorAll('#moves .loss')].filter((m) => m.textContent.includes('?')).length;",
    );
    let mistakes = analysed
        .get("moves")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .filter(|m| m.get_str("mark").is_some_and(|k| !k.is_empty()))
        .count();
    assert_eq!(marked.as_i64(), Some(mistakes as i64));
    assert!(mistakes > 0, "random moves make mistakes");
    save(&browser, "desktop-analysis.png");
    // The README's picture: the analysed game at move 24 with its hints, in
    // a window tall enough for the graph.
    browser.run("goTo(24);");
    browser.wait_for(
        "return game.cursor === 24 && document.querySelectorAll('#board text.hint').length > 2 ? true : null;",
        PATIENCE,
    );
    browser.resize(1280, 1060);
    browser.wait_for("return window.innerHeight > 900 ? true : null;", PATIENCE);
    save(&browser, "readme.png");
    browser.resize(1280, 900);

    // A position set up by hand: a1 black, b1 white (two clicks), then
    // the start's four discs, white to move.
    browser.click(&browser.find("#new"));
    browser.wait_for("return game.moves.length === 0;", PATIENCE);
    browser.click(&browser.find("#setup"));
    // Clear, then the start position, then paint a1 black and b1 white:
    // the counts follow.
    browser.click(&browser.find("#setup-clear"));
    assert!(
        browser
            .text(&browser.find("#discs"))
            .starts_with("Black 0 - White 0")
    );
    browser.click(&browser.find("#setup-start"));
    browser.click_nth("rect[data-square='a1']", 0);
    browser.click(&browser.find("input[name=paint][value=O]"));
    browser.click_nth("rect[data-square='b1']", 0);
    assert!(
        browser
            .text(&browser.find("#discs"))
            .starts_with("Black 3 - White 3")
    );
    browser.run("document.getElementById('setup-to-move').value = 'O';");
    browser.click(&browser.find("#setup-done"));
    let set = browser.wait_for(
        "return game.position.startsWith('XO') ? game.position : null;",
        PATIENCE,
    );
    let expected = format!(
        "XO{} O",
        &AnyPosition::start(Variant::Othello).to_string()[2..64]
    );
    assert_eq!(set.as_str(), Some(expected.as_str()));

    // A game opened from a file on disk.
    let (list, _) = random_game(7);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.txt");
    std::fs::write(&file, &list).unwrap();
    browser.type_into(&browser.find("#open-file"), file.to_str().unwrap());
    browser.wait_for(
        &format!(
            "return game.moves.length === {} && game.moves.every((m) => m.by !== 'person');",
            list.split(' ').count()
        ),
        PATIENCE,
    );

    // A game clock: 3 s each, the person's moves timed too. It runs down
    // while black thinks, and at zero black has lost on time.
    browser.run("document.getElementById('white').value = 'person';");
    browser.click(&browser.find("#new"));
    browser.wait_for(
        "return game && game.moves.length === 0 ? true : null;",
        PATIENCE,
    );
    browser.run(
        "const clock = document.getElementById('clock'); clock.value = 'other';
         clock.dispatchEvent(new Event('change'));
         document.getElementById('clock-minutes').value = '0.05';
         document.getElementById('clock-increment').value = '0';
         document.getElementById('person-clock').checked = true;",
    );
    browser.click(&browser.find("#clock-set"));
    let first = browser.wait_for(
        "return game.clock && game.clock.running === 'black'
            ? document.getElementById('clock-black').textContent : null;",
        PATIENCE,
    );
    browser.wait_for(
        &format!(
            "const now = document.getElementById('clock-black').textContent;
             return now !== {first} ? now : null;"
        ),
        PATIENCE,
    );
    let lost = browser.wait_for(
        "return game.over ? document.getElementById('status').textContent : null;",
        PATIENCE,
    );
    assert_eq!(
        lost.as_str(),
        Some("White wins on time (Black's time ran out)")
    );
    let shown = browser.text(&browser.find("#clock-black"));
    assert_eq!(shown, "Black 0:00.0");
    let none = browser.run("return document.querySelectorAll('rect.square.legal').length;");
    assert_eq!(none.as_i64(), Some(0), "no move after the flag fell");
    save(&browser, "desktop-lost-on-time.png");

    browser.resize(390, 844);
    browser.wait_for("return window.innerWidth <= 400;", PATIENCE);
    let board_width =
        browser.run("return document.getElementById('board').getBoundingClientRect().width;");
    let width = board_width
        .as_f64()
        .unwrap_or_else(|| panic!("no width: {board_width}"));
    // The board fills a phone's width.
    assert!((300.0..=400.0).contains(&width), "{board_width}");
    // Nothing wider than the phone; the moves right below the board, above
    // the settings.
    let layout = browser.run(
        "const top = (id) => document.getElementById(id).getBoundingClientRect().top;
         const width = document.documentElement.clientWidth;
         const wide = [...document.querySelectorAll('body *')]
           .filter((e) => e.getBoundingClientRect().right > width + 0.5)
           .map((e) => e.id || e.tagName);
         return [wide,
                 top('move-box') < document.querySelector('#side fieldset').getBoundingClientRect().top,
                 top('move-box') > top('board')];",
    );
    assert_eq!(layout, serde_json::json!([[], true, true]));
    save(&browser, "phone.png");
}

/// Over the server's game cap the page says so and offers only New game,
/// which works once a game was closed: no dead end.
#[test]
fn the_page_over_the_game_cap() {
    let Some((_orca, browser)) = open_page(&["--max-games", "1", "--idle", "120s"]) else {
        return;
    };
    let first = browser.wait_for(
        "return typeof game !== 'undefined' && game !== null ? game.id : null;",
        PATIENCE,
    );
    // The same page without its game: the one game the server holds is
    // still open (idle for two minutes), so no second one.
    browser.run("history.replaceState(null, '', '/'); location.reload();");
    let status = browser.wait_for(
        "const s = document.getElementById('status');
         return typeof game !== 'undefined' && s && s.textContent.startsWith('No game') ? s.textContent : null;",
        PATIENCE,
    );
    assert!(status.as_str().unwrap().contains("close"), "{status}");
    let dead = browser.run(
        "return [document.body.classList.contains('no-game'),
                 document.getElementById('undo').disabled,
                 document.getElementById('load').disabled,
                 document.getElementById('new').disabled];",
    );
    assert_eq!(dead, serde_json::json!([true, true, true, false]));
    save(&browser, "desktop-no-game.png");
    // The other game closed, New game opens one and every control works.
    browser.run(&format!(
        "fetch('/api/games/{first}', {{ method: 'DELETE' }});"
    ));
    browser.wait_for(
        &format!("return fetch('/api/games/{first}').then((r) => r.status === 404 ? true : null);"),
        PATIENCE,
    );
    browser.click(&browser.find("#new"));
    let alive = browser.wait_for(
        "return game && !document.body.classList.contains('no-game')
            ? [document.getElementById('load').disabled, document.querySelectorAll('rect.square.legal').length]
            : null;",
        PATIENCE,
    );
    assert_eq!(alive, serde_json::json!([false, 4]));
}
