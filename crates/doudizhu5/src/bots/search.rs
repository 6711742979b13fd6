//! The `search` bot's knowledge of 五人斗地主 (see [`game::search`]), for the play phase.
//! The grab and the declaration are the heuristic's: a world there would have to guess
//! every hand and the kitty before anything is known, and the play is where search pays.
//!
//! Worlds: every copy of every card the seat has not seen — three decks minus its hand and
//! the cards played (played cards are public by rank, so which suits went is drawn, the
//! marked card's copies last) — is dealt to the other hands in the sizes shown, after the
//! pairs and triples each seat showed in the grab and has not played. The landlord's side
//! is guessed from what the seat knows: an open solo, a hidden solo once revealed, the
//! partner once revealed or if it is the seat itself, the landlord's own mode for the
//! landlord; otherwise a partner call with the partner drawn among the seats that could be
//! it. Suits decide only when a partner is revealed, so the world does not force the
//! partner's copy of the marked card.
//!
//! Candidates: the heuristic's choice, passing, then per kind and length of play the lowest
//! and the highest, most cards first. Value: a win for the seat's side 1, a loss 0, the
//! score as a tie-break.

use super::HeuristicBot;
use crate::action::{Action, Phase};
use crate::declare::Mode;
use crate::hand::Hand;
use crate::play::Play;
use crate::rules::{DouDizhu5, State, SEATS};
use crate::view::View;
use cards::{Card, RankCounts};
use game::search::{deal_unseen, Determinize};
use game::{deal, Bot, Decision, GameRng, Rules, Seat, Seed};

/// The weight of the score beside a win: a tie-break.
const SCORE_TIE_BREAK: f64 = 1e-3;

impl Determinize for DouDizhu5 {
    fn determinize(view: &View, seat: Seat, rng: &mut GameRng) -> Option<State> {
        if seat >= SEATS || view.phase != Phase::Play {
            return None;
        }
        let mine = view.hand.as_ref()?;
        let marked = view.declaration.and_then(|d| d.marked);
        // Every copy of every card, less the seat's own.
        let mut copies = [3u8; 54];
        for c in mine {
            copies[c.id() as usize] = copies[c.id() as usize].checked_sub(1)?;
        }
        // Cards the others played: the very copies where they were shown with suits; by
        // rank otherwise, copies of each rank taken at random, the marked card's last.
        let mut played = RankCounts::EMPTY;
        for t in view.history.iter().filter(|t| t.seat != seat) {
            match t.suited {
                Some(suited) => {
                    for c in suited.cards() {
                        copies[c.id() as usize] = copies[c.id() as usize].checked_sub(1)?;
                    }
                }
                None => played = played.plus(t.cards.unwrap_or(RankCounts::EMPTY)),
            }
        }
        for (rank, n) in played.iter() {
            for _ in 0..n {
                let mut choices: Vec<Card> = Card::all()
                    .filter(|c| c.rank() == rank && copies[c.id() as usize] > 0)
                    .collect();
                if choices.len() > 1 {
                    choices.retain(|&c| Some(c) != marked);
                }
                let c = *choices.get(deal::below(rng, choices.len().max(1)))?;
                copies[c.id() as usize] -= 1;
            }
        }
        // The grab's shown sets stay with their seats, less what those seats played.
        let mut known: Vec<Vec<Card>> = vec![Vec::new(); SEATS];
        for s in (0..SEATS).filter(|&s| s != seat) {
            let played_by: RankCounts = view
                .history
                .iter()
                .filter(|t| t.seat == s)
                .filter_map(|t| t.cards)
                .fold(RankCounts::EMPTY, |a, c| a.plus(c));
            for shown in view.shown.get(s).into_iter().flatten() {
                let left =
                    u32::from(shown.count).saturating_sub(played_by.count(shown.card.rank()));
                for _ in 0..left {
                    let id = shown.card.id() as usize;
                    if copies[id] > 0 && known[s].len() < view.hand_sizes[s] {
                        copies[id] -= 1;
                        known[s].push(shown.card);
                    }
                }
            }
        }
        let mut pool: Vec<Card> = Card::all()
            .flat_map(|c| std::iter::repeat_n(c, usize::from(copies[c.id() as usize])))
            .collect();
        let others: Vec<Seat> = (0..SEATS).filter(|&s| s != seat).collect();
        let sizes: Vec<usize> = others
            .iter()
            .map(|&s| view.hand_sizes.get(s)?.checked_sub(known[s].len()))
            .collect::<Option<_>>()?;
        let dealt = deal_unseen(&mut pool, &sizes, rng)?;
        let mut hands: Vec<Hand> = vec![Hand::of(mine); SEATS];
        for (&s, cards) in others.iter().zip(&dealt) {
            let mut all = known[s].clone();
            all.extend_from_slice(cards);
            hands[s] = Hand::of(&all);
        }
        let (mode, partner) = guess_sides(view, seat, rng);
        Some(State::world(view, hands, mode, partner))
    }

    fn candidates(view: &View, seat: Seat, legal: &[Action], limit: usize) -> Vec<Action> {
        let favourite = HeuristicBot.act(&Decision::from_view(view, seat, legal));
        if view.phase != Phase::Play {
            return vec![favourite];
        }
        if let Some(out) = legal
            .iter()
            .find(|a| matches!(a, Action::Play(c) if *c == view.ranks()))
        {
            return vec![*out];
        }
        let mut out = vec![favourite];
        if legal.contains(&Action::Pass) && favourite != Action::Pass {
            out.push(Action::Pass);
        }
        let mut plays: Vec<Play> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(c) => Play::classify(*c),
                _ => None,
            })
            .collect();
        plays.sort_by_key(|p| (std::cmp::Reverse(p.cards.len()), p.kind.bit(), p.len, p.key));
        let mut extremes: Vec<Play> = Vec::new();
        for (i, p) in plays.iter().enumerate() {
            let shape =
                |q: &Play| q.kind == p.kind && q.len == p.len && q.cards.len() == p.cards.len();
            let first = i == 0 || !shape(&plays[i - 1]);
            let last = i + 1 == plays.len() || !shape(&plays[i + 1]);
            if first || last {
                extremes.push(*p);
            }
        }
        for p in extremes {
            if out.len() >= limit.max(2) {
                break;
            }
            if !out.contains(&Action::Play(p.cards)) {
                out.push(Action::Play(p.cards));
            }
        }
        out
    }

    fn rollout_bot(_: &Seed) -> Box<dyn Bot<DouDizhu5>> {
        Box::new(HeuristicBot)
    }

    fn value(_: &View, seat: Seat, end: &State) -> f64 {
        DouDizhu5::outcome(end).map_or(0.0, |o| {
            let won = o.won.get(seat).copied().unwrap_or(false);
            let score = o.scores.get(seat).copied().unwrap_or(0) as f64;
            f64::from(u8::from(won)) + SCORE_TIE_BREAK * score
        })
    }
}

/// The landlord's mode and partner in a world, from what `seat` knows (see the module
/// docs).
fn guess_sides(view: &View, seat: Seat, rng: &mut GameRng) -> (Option<Mode>, Option<Seat>) {
    let Some(landlord) = view.landlord else {
        return (None, None);
    };
    if view.declaration.is_some_and(|d| d.open_solo) {
        return (Some(Mode::OpenSolo), None);
    }
    if let Some(mode) = view.my_mode {
        if mode != Mode::Partner {
            return (Some(mode), None);
        }
    }
    if let Some(p) = view.partner {
        return (Some(Mode::Partner), Some(p));
    }
    if view.revealed {
        return (Some(Mode::HiddenSolo), None);
    }
    let could_be: Vec<Seat> = (0..SEATS).filter(|&s| s != landlord && s != seat).collect();
    let partner = could_be
        .get(deal::below(rng, could_be.len().max(1)))
        .copied();
    (Some(Mode::Partner), partner)
}
