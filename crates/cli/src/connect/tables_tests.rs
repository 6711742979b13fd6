//! The terminal's reading of a line at a table: a move where the game reads one, a table
//! word otherwise, on a 五人斗地主 table at its declaration.

use super::*;
use game::{Seed, TableSetup, ToAct};
use serde_json::{json, Value};
use server::protocol::request;

/// A 五人斗地主 table seen by its landlord at the declaration, the seat's view and
/// legal actions as the server sends them.
fn at_the_declaration(registry: &Registry) -> Tables {
    at_the_declaration_as(registry, 0, false)
}

/// [`at_the_declaration`] as the seat `after` seats past the declarer sees it, and, if
/// `over`, with no seat to act (the game ended).
fn at_the_declaration_as(registry: &Registry, after: usize, over: bool) -> Tables {
    let game = registry.get("doudizhu5").expect("doudizhu5");
    let config = game.default_config();
    let setup = TableSetup::new("t1-1", config.clone(), 5, Seed::from_u64(3));
    let mut table = game.new_table(&setup).expect("a table");
    for seat in 0..5 {
        table
            .set_bot(seat, "heuristic", &Seed::from_u64(seat as u64))
            .expect("a bot");
    }
    let seat = loop {
        let seat = match table.to_act() {
            ToAct::Seat(seat) => seat,
            ToAct::Seats(seats) => seats.iter().next().expect("a seat"),
            ToAct::Finished => panic!("the deal ended before a declaration"),
        };
        if table.view(Viewer::Seat(seat)).expect("a view")["phase"] == "declare" {
            break seat;
        }
        table.bot_move(seat).expect("a bot's move");
    };
    let seats: Vec<Value> = (0..5)
        .map(|s| json!({"seat": s, "ready": true, "connected": true, "auto": false}))
        .collect();
    let declarer = seat;
    let seat = (declarer + after) % 5;
    let to_act: Vec<usize> = if over { Vec::new() } else { vec![declarer] };
    let legal = if seat == declarer && !over {
        table.legal(seat).expect("legal actions")
    } else {
        Vec::new()
    };
    let message = json!({
        "type": "table", "table": "t1", "seq": 7, "you": seat,
        "info": {"id": "t1", "game": "doudizhu5", "status": "playing", "seats": seats,
                 "spectators": 0, "options": {"config": config, "private": false,
                 "computers": true, "rated": false, "turn_seconds": {}},
                 "host": "a", "games": 0, "totals": [0, 0, 0, 0, 0], "quick": false},
        "game": {"game_id": "t1-1", "commitment": "", "nonces": [], "phase": "declare",
                 "view": table.view(Viewer::Seat(seat)).expect("a view"),
                 "to_act": to_act, "legal": legal},
    });
    let mut tables = Tables::default();
    tables.take(
        registry,
        serde_json::from_value(message).expect("a table message"),
        None,
    );
    tables
}

/// 五人斗地主's open solo is declared with `open`, which the terminal also reads as
/// "open a table": on the landlord's turn it is the declaration.
#[test]
fn open_at_the_declaration_is_the_move_not_a_new_table() {
    let registry = games::registry();
    let tables = at_the_declaration(&registry);
    assert!(tables.focused().is_some_and(Seen::may_act));
    for line in ["open", " open ", "partner", "hidden"] {
        assert!(tables.reads_as_move(&registry, line), "{line:?}");
    }
    for line in [
        "",
        "hint",
        "help",
        "leave",
        "show",
        "auto",
        "say open",
        "open doudizhu",
    ] {
        assert!(!tables.reads_as_move(&registry, line), "{line:?}");
    }
    let Ok(ClientMessage::Act(request::Act { action, .. })) = tables.read_move(&registry, "open")
    else {
        panic!("`open` is a declaration");
    };
    assert_eq!(action, json!({"declare": "open_solo"}));
}

/// Off turn, a line the game reads is still its move, so that `stand` or `open` typed
/// a moment early is not taken for "get up" or "open a table"; once the game is over,
/// table words are table words again.
#[test]
fn off_turn_a_move_spelled_like_a_table_word_is_the_move_until_the_game_ends() {
    let registry = games::registry();
    let waiting = at_the_declaration_as(&registry, 2, false);
    assert!(!waiting.focused().is_some_and(Seen::may_act));
    assert!(waiting.reads_as_move(&registry, "open"));
    assert!(!waiting.reads_as_move(&registry, "leave"));
    let over = at_the_declaration_as(&registry, 0, true);
    assert!(!over.reads_as_move(&registry, "open"));
}

/// What the terminal says on being seated at a waiting Dou Dizhu table with these three
/// `seats`, as seat 0, with `fill_ms` in the table's info when given (quick play).
fn said_at_a_waiting_table(seats: Value, fill_ms: Option<u64>) -> String {
    let registry = games::registry();
    let mut info = json!({"id": "t2", "game": "doudizhu", "status": "waiting", "seats": seats,
                          "spectators": 0, "options": {"config": null, "private": false,
                          "computers": true, "rated": false, "turn_seconds": {}},
                          "host": "alice", "games": 0, "totals": [0, 0, 0],
                          "quick": fill_ms.is_some()});
    if let Some(ms) = fill_ms {
        info["fill_ms"] = json!(ms);
    }
    let message = json!({"type": "table", "table": "t2", "seq": 1, "you": 0, "info": info});
    Tables::default()
        .take(
            &registry,
            serde_json::from_value(message).expect("a table message"),
            None,
        )
        .expect("the table is told")
}

/// The terminal numbers seats from 1, as the browser does: the seat at index 0 is seat 1,
/// in the seats line and in the game's own lines.
#[test]
fn seats_are_numbered_from_one_as_in_the_browser() {
    let said = said_at_a_waiting_table(
        json!([
            {"seat": 0, "user": {"id": 1, "name": "alice", "guest": true},
             "ready": false, "connected": true, "auto": false},
            {"seat": 1, "bot": "heuristic", "ready": true, "connected": true, "auto": false},
            {"seat": 2, "ready": false, "connected": false, "auto": false}]),
        None,
    );
    assert!(
        said.contains("1 alice (you) · 2 computer heuristic · 3 empty"),
        "{said}"
    );
}

/// A quick-play table says how soon computers come while a seat is empty, and says
/// nothing of them once every seat is taken.
#[test]
fn a_quick_table_says_when_computers_take_the_empty_seats() {
    let seats = |third: Value| {
        json!([
            {"seat": 0, "user": {"id": 1, "name": "alice", "guest": true},
             "ready": true, "connected": true, "auto": false},
            {"seat": 1, "user": {"id": 2, "name": "bob", "guest": true},
             "ready": true, "connected": true, "auto": false},
            third])
    };
    let empty = json!({"seat": 2, "ready": false, "connected": false, "auto": false});
    let waiting = said_at_a_waiting_table(seats(empty), Some(4200));
    assert!(
        waiting.contains("Computers take the empty seats in 5 s; people may still join."),
        "{waiting}"
    );
    let carol = json!({"seat": 2, "user": {"id": 3, "name": "carol", "guest": true},
                       "ready": false, "connected": true, "auto": false});
    let full = said_at_a_waiting_table(seats(carol), Some(4200));
    assert!(!full.contains("Computers take"), "{full}");
}
