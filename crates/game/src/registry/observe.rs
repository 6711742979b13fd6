//! What one seat (or a spectator) receives while a game is played: the stream a server
//! sends a connection, and what secrecy tests compare.

use super::{to_json, GameError, Table};
use crate::{Rules, Seat, Viewer};
use serde_json::{json, Value};

/// One step of a stream: who acted, the action as the viewer may learn it, the events and
/// the view after it.
fn step(seat: Seat, seen: Value, events: Vec<Value>, view: Value) -> Value {
    json!({ "seat": seat, "action": seen, "events": events, "view": view })
}

/// Plays `actions` (private forms, in order) at `table` and returns everything `viewer`
/// receives, in order: the first view; then for each action its form as the viewer may
/// learn it (the private form for its own actor, the public form for everyone else), its
/// public events and the view after it. Stops early when the game ends, or before the
/// first action for which `stop` says so.
///
/// Two worlds that differ only in what `viewer` may not know (the others' hidden cards,
/// a private choice) must give equal streams: that is the secrecy property every game is
/// tested for, and exactly what a server may send.
pub fn observe(
    table: &mut dyn Table,
    viewer: Viewer,
    actions: &[(Seat, Value)],
    mut stop: impl FnMut(Seat, &Value) -> bool,
) -> Result<Vec<Value>, GameError> {
    let mut stream = vec![table.view(viewer)?];
    for (seat, action) in actions {
        if table.outcome().is_some() || stop(*seat, action) {
            break;
        }
        let applied = table.apply(*seat, action)?;
        let seen = if viewer == Viewer::Seat(*seat) {
            applied.action
        } else {
            applied.public
        };
        stream.push(step(*seat, seen, applied.events, table.view(viewer)?));
    }
    Ok(stream)
}

/// [`observe`] for a game's own state and actions, for games whose deals a test builds
/// directly (`State::from_hands`) rather than through a configuration. The stream has the
/// same form.
pub fn observe_state<R: Rules>(
    mut state: R::State,
    viewer: Viewer,
    actions: &[(Seat, R::Action)],
    mut stop: impl FnMut(Seat, &R::Action) -> bool,
) -> Result<Vec<Value>, GameError> {
    let mut stream = vec![to_json(&R::view(&state, viewer))?];
    let mut events = Vec::new();
    for (seat, action) in actions {
        if R::outcome(&state).is_some() || stop(*seat, action) {
            break;
        }
        let seen = if viewer == Viewer::Seat(*seat) {
            to_json(action)?
        } else {
            to_json(&R::public_action(action))?
        };
        events.clear();
        R::apply(&mut state, *seat, action.clone(), &mut events)?;
        let events = events.iter().map(to_json).collect::<Result<_, _>>()?;
        stream.push(step(
            *seat,
            seen,
            events,
            to_json(&R::view(&state, viewer))?,
        ));
    }
    Ok(stream)
}

/// Plays `table` to its end with the bot `bot` in every seat and returns the actions in
/// their private forms, in order: a script that a twin world can replay (secrecy tests,
/// resumption tests). Simultaneous phases are played seat by seat in ascending order.
pub fn play_with_bots(
    table: &mut dyn Table,
    bot: &str,
    seed: &crate::Seed,
) -> Result<Vec<(Seat, Value)>, GameError> {
    for seat in 0..table.seats() {
        table.set_bot(seat, bot, &seed.derive(seat as u64))?;
    }
    let mut actions = Vec::new();
    while let Some(seat) = table.to_act().seats().iter().next() {
        let applied = table.bot_move(seat)?;
        actions.push((seat, applied.action));
        if actions.len() > crate::sim::MAX_ACTIONS {
            return Err(GameError::Stuck("the game does not end".into()));
        }
    }
    Ok(actions)
}

/// Where two streams first differ, as a path and the two values (`"[3].view.hand_sizes[2]:
/// 17 vs 16"`), or `None` when they are equal: what a failing secrecy test should say
/// instead of printing two whole games.
pub fn first_difference(a: &[Value], b: &[Value]) -> Option<String> {
    fn walk(path: String, a: &Value, b: &Value) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                keys.into_iter().find_map(|k| {
                    walk(
                        format!("{path}.{k}"),
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                    )
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| walk(format!("{path}[{i}]"), p, q)),
            _ if a == b => None,
            _ => Some(format!("{path}: {a} vs {b}")),
        }
    }
    walk(
        String::new(),
        &Value::Array(a.to_vec()),
        &Value::Array(b.to_vec()),
    )
}
