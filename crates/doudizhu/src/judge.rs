//! `qipai judge doudizhu`: the rules as an oracle over JSON lines.
//!
//! Ops: `classify`, `legal`, `beats`, `score`, `game`, `act` (docs/judge.md). Cards are in
//! the rank-only notation (`"3 3 3 4"`, `BJ`, `RJ`). The table options 加倍 and 明牌 reach
//! `score` (`shown`, `landlord_double`, `peasant_doubles`) and `game` (`doubling`,
//! `show_cards`, and the actions `{"seat":…,"double":2}`, `{"seat":…,"show":true}`).

use crate::movegen::legal_plays;
use crate::rules::{Action, Config, CustomDeal, DouDizhu, Phase};
use crate::scoring::MAX_BOMBS;
use crate::text::hint_order;
use crate::{bots, score, settle, Doubling, Play, ScoreInput, View};
use cards::{Deck, ParseError, RankCounts};
use game::judge::{answer, Field, Fields, JudgeError};
use game::{Decision, Rules, Seat};
use serde_json::{json, Value};

const OPS: &[&str] = &["classify", "legal", "beats", "score", "game", "act"];

/// The seats of a game of Dou Dizhu.
const SEATS: usize = 3;

type Answer = Result<Value, JudgeError>;

/// Answers one judge request.
pub(crate) fn judge(request: &Value) -> Value {
    answer(request, |op, f| match op {
        "classify" => classify(f),
        "legal" => legal(f),
        "beats" => beats(f),
        "score" => score_op(f),
        "game" => game(f),
        "act" => act(f),
        _ => Err(JudgeError::unknown_op(op, OPS)),
    })
}

/// Cards in the rank-only notation that one deck holds.
fn ranks(text: &str) -> Result<RankCounts, ParseError> {
    let rc: RankCounts = text.parse()?;
    Deck::WITH_JOKERS.check_ranks(rc)?;
    Ok(rc)
}

/// A play: cards one deck holds that form one of the 27,471 plays.
fn play(text: &str) -> Result<Play, String> {
    let rc = ranks(text).map_err(|e| e.to_string())?;
    if rc.is_empty() {
        return Err("no cards is not a play".into());
    }
    Play::classify(rc).ok_or_else(|| format!("{rc} is not a play"))
}

fn classify(f: Fields<'_>) -> Answer {
    let rc = f.cards("cards", ranks)?;
    Ok(match Play::classify(rc) {
        Some(p) => json!({"kind": p.kind().name(), "rank": p.rank().symbol(), "len": p.len()}),
        None => json!({"kind": null}),
    })
}

fn legal(f: Fields<'_>) -> Answer {
    let hand = f.cards("hand", ranks)?;
    let last = f.last(play)?;
    let mut plays = Vec::new();
    legal_plays(hand, last, &mut plays);
    hint_order(&mut plays);
    let mut out: Vec<String> = plays.iter().map(Play::to_string).collect();
    if last.is_some() {
        out.push("pass".into());
    }
    Ok(json!({ "plays": out }))
}

/// Whether `play` may be played on `last`: `false` for cards that are no play; with
/// nothing to beat (leading), any play may be played.
fn beats(f: Fields<'_>) -> Answer {
    let p = Play::classify(f.cards("play", ranks)?);
    let last = f.last(play)?;
    let beats = p.is_some_and(|p| last.is_none_or(|l| p.beats(l)));
    Ok(json!({ "beats": beats }))
}

fn score_op(f: Fields<'_>) -> Answer {
    let bid = f.u64("bid")?;
    if !(1..=3).contains(&bid) {
        return Err(JudgeError::invalid(
            "bid",
            format!("a bid is 1, 2 or 3, not {bid}"),
        ));
    }
    let bombs = f.u64("bombs")?;
    if bombs > u64::from(MAX_BOMBS) {
        return Err(JudgeError::invalid(
            "bombs",
            format!("at most {MAX_BOMBS} (thirteen four-of-a-kinds and the rocket), not {bombs}"),
        ));
    }
    let input = ScoreInput {
        bid: bid as u8,
        landlord_won: f.bool("landlord_won")?,
        bombs: bombs as u32,
        spring: f.bool("spring")?,
        anti_spring: f.bool("anti_spring")?,
        shown: f.opt_value("shown").is_some() && f.bool("shown")?,
    };
    input.check().map_err(JudgeError::Unreachable)?;
    if !f.has("landlord_double") && !f.has("peasant_doubles") {
        let (landlord, peasant) = score(&input);
        return Ok(json!({ "landlord": landlord, "peasant": peasant }));
    }
    let landlord_double = match f.opt_u64("landlord_double")? {
        Some(d) => factor("landlord_double", d)?,
        None => 1,
    };
    let peasant_doubles = match f.opt_value("peasant_doubles") {
        Some(_) => {
            let list: Vec<u64> = f.json("peasant_doubles")?;
            let [a, b] = list[..] else {
                return Err(JudgeError::invalid(
                    "peasant_doubles",
                    format!("the two peasants' doublings, not {} of them", list.len()),
                ));
            };
            [factor("peasant_doubles", a)?, factor("peasant_doubles", b)?]
        }
        None => [1, 1],
    };
    let (landlord, peasants) = settle(&input, landlord_double, peasant_doubles);
    Ok(json!({ "landlord": landlord, "peasants": peasants }))
}

/// A doubling factor (加倍): 1, 2 or 4.
fn factor(field: &str, d: u64) -> Result<u8, JudgeError> {
    match d {
        1 | 2 | 4 => Ok(d as u8),
        _ => Err(JudgeError::invalid(
            field,
            format!("a doubling is 1 (none), 2 (加倍) or 4 (超级加倍), not {d}"),
        )),
    }
}

/// The table options of a `game` request: `doubling` (`"off"`, `"double"`, `"super"`) and
/// `show_cards`, both optional.
fn options(f: &Fields<'_>) -> Result<(Doubling, bool), JudgeError> {
    let doubling = match f.opt_value("doubling") {
        Some(_) => f.json("doubling")?,
        None => Doubling::Off,
    };
    let show_cards = f.opt_value("show_cards").is_some() && f.bool("show_cards")?;
    Ok((doubling, show_cards))
}

/// The `game` op: a deal of the request's hands, then its actions, each checked by the
/// rules; the first refused action is answered with its index.
fn game(f: Fields<'_>) -> Answer {
    let hands: [RankCounts; SEATS] =
        f.card_lists("hands", ranks)?
            .try_into()
            .map_err(|h: Vec<RankCounts>| {
                JudgeError::invalid("hands", format!("a deal is three hands, not {}", h.len()))
            })?;
    let kitty = f.cards("kitty", ranks)?;
    let first_bidder = f.seat("first_bidder", SEATS)?;
    let (doubling, show_cards) = options(&f)?;
    let config = Config {
        doubling,
        show_cards,
        first_bidder: Some(first_bidder),
        deal: Some(CustomDeal { hands, kitty }),
        ..Config::default()
    };
    let mut state =
        DouDizhu::start(&config, SEATS, &f.seed()?).map_err(|e| JudgeError::rule(None, e))?;
    let mut events = Vec::new();
    f.replay("actions", |i, entry| {
        let a = Fields::element(
            "actions",
            i,
            entry,
            "an action {\"seat\":…,\"bid\":…}, {\"seat\":…,\"play\":\"…\"}, \
             {\"seat\":…,\"double\":…} or {\"seat\":…,\"show\":…}",
        )?;
        let seat = a.seat("seat", SEATS)?;
        let keys = ["bid", "play", "double", "show"].map(|k| a.has(k));
        let action = match keys {
            [false, false, true, false] => Action::Double(factor("double", a.u64("double")?)?),
            [false, false, false, true] => Action::Show(a.bool("show")?),
            [true, false, false, false] => match a.u64("bid")? {
                b @ 0..=3 => Action::Bid(b as u8),
                b => {
                    return Err(JudgeError::invalid(
                        "bid",
                        format!("a bid is 0 (no bid), 1, 2 or 3, not {b}"),
                    ))
                }
            },
            [false, true, false, false] => a.cards("play", |t| {
                if t.trim().eq_ignore_ascii_case("pass") {
                    Ok(Action::Pass)
                } else {
                    play(t).map(Action::Play)
                }
            })?,
            _ => {
                return Err(JudgeError::invalid(
                    Field::at("actions", i),
                    "an action has one of \"bid\", \"play\", \"double\" and \"show\"",
                ))
            }
        };
        DouDizhu::apply(&mut state, seat, action, &mut events)
            .map_err(|e| JudgeError::rule(Some(seat), e))
    })?;
    let finished = state.phase() == Phase::Finished;
    let outcome = DouDizhu::outcome(&state);
    let mut answer = json!({
        "finished": finished,
        "scores": outcome.map(|o| o.scores),
        "landlord": state.landlord(),
        "multiplier": state.multiplier(),
    });
    // The options' figures only where the options are on: answers without them are as
    // they always were.
    if !doubling.is_off() {
        answer["doubles"] = json!(state.doubles());
    }
    if show_cards {
        answer["shown"] = json!(state.shown());
    }
    Ok(answer)
}

/// Rebuilds, from what one seat knows, the view it would have at its turn in the play
/// phase. `history` is replayed: the first entry no game could have is answered with its
/// index.
fn view_from_history(f: Fields<'_>, seat: Seat) -> Result<View, JudgeError> {
    let landlord = f.seat("landlord", SEATS)?;
    let hand = f.cards("hand", ranks)?;
    let kitty = f.opt_cards("kitty", ranks)?.unwrap_or(RankCounts::EMPTY);
    let mut history = Vec::new();
    let mut sizes = [17u32; SEATS];
    sizes[landlord] = 20;
    let mut turn = landlord;
    let mut last: Option<(Seat, Play)> = None;
    f.replay("history", |i, entry| {
        let wrong = || JudgeError::WrongType {
            field: Field::at("history", i),
            expected: "[seat, \"cards\" or \"pass\"]",
        };
        let pair = entry
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or_else(wrong)?;
        let s = pair[0]
            .as_u64()
            .and_then(|s| Seat::try_from(s).ok())
            .filter(|&s| s < SEATS)
            .ok_or_else(|| {
                JudgeError::invalid(
                    Field::at("history", i),
                    format!("a seat is 0, 1 or 2, not {}", pair[0]),
                )
            })?;
        if s != turn {
            return Err(JudgeError::Unreachable(format!(
                "it was seat {turn}'s turn, not seat {s}'s"
            )));
        }
        let text = pair[1].as_str().ok_or_else(wrong)?;
        if text.trim().eq_ignore_ascii_case("pass") {
            if last.is_none() {
                return Err(JudgeError::Unreachable("the leader cannot pass".into()));
            }
            history.push((s, None));
        } else {
            let p = play(text).map_err(|e| JudgeError::invalid(Field::at("history", i), e))?;
            if let Some((_, l)) = last {
                if !p.beats(l) {
                    return Err(JudgeError::Unreachable(format!("{p} does not beat {l}")));
                }
            }
            if p.size() > sizes[s] {
                return Err(JudgeError::Unreachable(format!(
                    "seat {s} does not have that many cards"
                )));
            }
            sizes[s] -= p.size();
            history.push((s, Some(p)));
            last = Some((s, p));
        }
        turn = (turn + 1) % SEATS;
        if last.is_some_and(|(owner, _)| owner == turn) {
            last = None;
        }
        if sizes[s] == 0 {
            return Err(JudgeError::Unreachable(format!(
                "seat {s} went out; the game is over"
            )));
        }
        Ok(())
    })?;
    if turn != seat {
        return Err(JudgeError::Unreachable(format!(
            "after this history it is seat {turn}'s turn, not seat {seat}'s"
        )));
    }
    if hand.len() != sizes[seat] {
        return Err(JudgeError::Unreachable(format!(
            "seat {seat} should hold {} cards after this history, the hand has {}",
            sizes[seat],
            hand.len()
        )));
    }
    let view = View {
        seat: Some(seat),
        phase: Phase::Playing,
        hand: Some(hand),
        hand_sizes: sizes,
        first_bidder: landlord,
        bids: Vec::new(),
        redeals: 0,
        landlord: Some(landlord),
        bid: 1,
        kitty: Some(kitty),
        doubling: Doubling::Off,
        show_cards: false,
        doubles: [0; SEATS],
        shown: None,
        history,
        last,
        to_act: Some(seat),
        multiplier: 1,
        winner: None,
        scores: None,
        spring: false,
        anti_spring: false,
        revealed: None,
        suits: Default::default(),
    };
    // The seat's own cards, the kitty and the plays must fit in one deck together.
    let played = (0..SEATS).fold(RankCounts::EMPTY, |a, s| a.plus(view.played_by(s)));
    Deck::WITH_JOKERS
        .check_ranks(played.plus(hand))
        .map_err(|e| JudgeError::Unreachable(format!("hand and history together: {e}")))?;
    Ok(view)
}

/// Dou Dizhu's `act`: a bot's play from a seat's history rather than a table's view
/// (docs/judge.md), read with the same `bot`, `seat` and `seed` as every game's `act`.
fn act(f: Fields<'_>) -> Answer {
    let name = f.str("bot")?;
    let seat = f.seat("seat", SEATS)?;
    let seed = f.seed()?;
    let view = view_from_history(f, seat)?;
    let mut bot = bots::by_name(name, &seed).ok_or_else(|| JudgeError::UnknownBot {
        name: name.to_string(),
        known: bots::NAMES,
    })?;
    let mut legal = Vec::new();
    let last = view.last.map(|(_, p)| p);
    if last.is_some() {
        legal.push(Action::Pass);
    }
    let mut plays = Vec::new();
    legal_plays(view.hand.unwrap_or_default(), last, &mut plays);
    legal.extend(plays.into_iter().map(Action::Play));
    let choice = bot.act(&Decision::from_view(&view, seat, &legal));
    let play = match choice {
        Action::Play(p) => p.to_string(),
        Action::Pass | Action::Bid(_) | Action::Double(_) | Action::Show(_) => "pass".to_string(),
    };
    Ok(json!({ "play": play }))
}
