//! `qipai bot GAME BOT`: one of the game's bots as an engine of qipai's JSON-lines protocol.
//!
//! It reads the requests an engine reads (`{"game":…,"seat":…,"view":{…},"legal":[…]}`,
//! see `engine::jsonl` and docs/engines.md) and answers each with the bot's action,
//! `{"action":…,"text":"…"}`. So another harness can keep one qipai bot running and ask it
//! move after move, and a bot author has a working engine to compare theirs with:
//! `qipai sim doudizhu --bots external,search,search --engine "qipai bot doudizhu
//! heuristic"` plays exactly as `--bots heuristic,search,search`. A request it cannot
//! answer gets `{"error":"…"}` and the next line is read; it never exits on bad input.

use crate::lines;
use anyhow::{bail, Result};
use game::{ErasedGame, GameError, Registry, Seat, Seed};
use serde_json::{json, Map, Value};

/// `qipai bot` options.
#[derive(clap::Args)]
pub struct Args {
    /// The game: see `qipai games`.
    game: String,
    /// The bot that decides (`heuristic`, `search`, `search:50ms`…; see `qipai games`).
    bot: String,
    /// The bot's seed: the same seed and view give the same action.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Answers requests until the input ends.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let game = registry.get(&args.game)?;
    let seed = Seed::from_u64(args.seed);
    // An unknown bot is refused before any request (the empty legal list is refused after
    // the name is checked).
    if let Err(e @ GameError::UnknownBot { .. }) =
        game.bot_act(&args.bot, &seed, 0, &Value::Null, &[])
    {
        bail!(e);
    }
    lines::answer_each(|line| {
        let request = line.and_then(|line| match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(request)) => Ok(request),
            Ok(_) => Err("a request is a JSON object".to_string()),
            Err(e) => Err(format!("not JSON: {e}")),
        });
        request
            .and_then(|r| answer(game, &args.bot, &seed, &r))
            .unwrap_or_else(|error| json!({ "error": error }))
    })?;
    Ok(())
}

/// The bot's action for one request.
fn answer(
    game: &dyn ErasedGame,
    bot: &str,
    seed: &Seed,
    request: &Map<String, Value>,
) -> Result<Value, String> {
    if let Some(asked) = request.get("game") {
        if asked.as_str() != Some(game.id()) {
            return Err(format!("this engine plays {}, not {asked}", game.id()));
        }
    }
    let seat = request
        .get("seat")
        .and_then(Value::as_u64)
        .and_then(|s| Seat::try_from(s).ok())
        .ok_or("\"seat\" must be a seat number")?;
    let view = request.get("view").ok_or("missing \"view\"")?;
    let legal = request
        .get("legal")
        .and_then(Value::as_array)
        .ok_or("\"legal\" must be the array of legal actions")?;
    // A view no table would send could trip a bot up; the request gets an error instead.
    let action = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.bot_act(bot, seed, seat, view, legal)
    }))
    .map_err(|_| "the bot could not decide from this view".to_string())?
    .map_err(|e| e.to_string())?;
    Ok(json!({ "text": game.action_text(view, &action), "action": action }))
}
