//! What the other seats' actions say about their cards: how plausible a world makes what
//! they did, the chance with which the search keeps that world ([`actions_explained`]).
//!
//! Each other seat's bids and turns are replayed with the hand the world gives it, and
//! compared with what a model of that player would have done there. A careful player is
//! modelled by the heuristic, the same model the play-outs use; a player the search
//! judges to play at random ([`super::careless`]) by the random player, who makes each of
//! its legal choices alike. Every chance is weak on purpose: a person passes with a beat in
//! hand for their own reasons, and a world that contradicts the model must stay possible.

use super::heuristic::bidding::wanted_bid;
use super::heuristic::decompose::Decomposer;
use super::heuristic::stakes;
use super::HeuristicBot;
use crate::movegen::legal_plays;
use crate::rules::{Action, Phase, State};
use crate::{Play, View};
use game::{Bot, Decision, Seat, Seed};

/// The chance a world keeps for each pass the heuristic would not have made in it: a pass
/// with a beat the heuristic would have played is weak evidence against that hand, not
/// proof (people and other bots pass for their own reasons).
const UNEXPLAINED_PASS: f64 = 0.2;

/// The chance a world keeps for each play the heuristic would have made otherwise in it.
/// Weaker evidence than a pass: among many plays that suit a hand, another player may well
/// pick another one.
const UNEXPLAINED_PLAY: f64 = 0.5;

/// The chance a world keeps for each bid the heuristic would have made otherwise with the
/// hand it deals: bids are coarse (four values for every hand), so a different one says
/// little.
const UNEXPLAINED_BID: f64 = 0.5;

/// How well the world explains what the other seats did: their bids ([`bids_explained`]),
/// then each of their turns in the play phase, replayed with the hand that seat held at
/// that moment in the world (its hand now and every card it played since), the heuristic
/// (the model of the other players that the play-outs use) asked what it would have done.
/// Each action it would not have chosen multiplies the chance by [`UNEXPLAINED_PASS`] or
/// [`UNEXPLAINED_PLAY`]. The seats in `at_random` play at random in this world: their bids
/// are not judged, their plays and passes by [`random_choice_explained`]. Stops once the
/// chance is below `floor`.
pub(super) fn actions_explained(
    view: &View,
    seat: Seat,
    world: &State,
    at_random: &[Seat],
    floor: f64,
) -> f64 {
    let mut chance = bids_explained(view, seat, world, at_random)
        * doublings_explained(view, seat, world, at_random);
    if chance < floor {
        return chance;
    }
    let mut heuristic = HeuristicBot::new(&Seed::from_u64(0));
    choices_then(view, seat, world, |then, by, legal, done| {
        if at_random.contains(&by) {
            chance *= random_choice_explained(legal, done);
            return chance >= floor;
        }
        if heuristic.act(&Decision::from_view(then, by, legal)) != done {
            chance *= if done == Action::Pass {
                UNEXPLAINED_PASS
            } else {
                UNEXPLAINED_PLAY
            };
        }
        chance >= floor
    });
    chance
}

/// How well a world explains one choice of a seat that plays at random in it. A random
/// player makes each of its `n` legal choices with chance `1/n`, so its choices do say
/// something about its cards: one who passed is likelier to have held few beats, and one
/// who beat a play likelier to have held few others. The chance is taken over the most any
/// world could give that choice, so that it stays a chance: a pass is most likely with no
/// beat at all (`1/n` over 1), a beat with no other beat (`1/n` over `1/2`). Leads are not
/// judged: every hand offers many, their number turns mostly on the kickers a hand could
/// add, and the fewest any world offers is not known to scale by.
///
/// Measured by `random_players_are_read_from_their_passes` (100 deals of a heuristic
/// landlord against random peasants, 40 worlds at each of its turns from the third): with
/// a random player's choices left out, a peasant's hand in a world differed from the true
/// one by 3.53 cards, and whether it held a 2 or a joker was wrong in 23.2% of the worlds;
/// judged so, 3.37 cards and 20.7%. Against random peasants the landlord won as many
/// deals either way (9,889 and 9,890 of 10,000; docs/bots.md).
fn random_choice_explained(legal: &[Action], done: Action) -> f64 {
    if !legal.contains(&Action::Pass) {
        return 1.0;
    }
    let most = if done == Action::Pass { 1.0 } else { 0.5 };
    (1.0 / legal.len() as f64) / most
}

/// How well the world explains the other seats' bids: each bid is compared with the one the
/// heuristic would have made with that seat's hand as dealt (its hand in the world, every
/// card it played since, less the kitty if it took it); each bid the heuristic would not
/// have made multiplies the chance by [`UNEXPLAINED_BID`]. The bids of the seats in
/// `at_random` are not judged.
fn bids_explained(view: &View, seat: Seat, world: &State, at_random: &[Seat]) -> f64 {
    let mut chance = 1.0;
    let mut dec = Decomposer::default();
    let mut highest = 0;
    for &(by, bid) in &view.bids {
        if by != seat && by < 3 && !at_random.contains(&by) {
            let mut dealt = world.hands[by].plus(view.played_by(by));
            if view.landlord == Some(by) {
                dealt = dealt.checked_minus(world.kitty).unwrap_or(dealt);
            }
            let want = wanted_bid(dealt, &mut dec);
            let would = if want > highest { want } else { 0 };
            if would != bid {
                chance *= UNEXPLAINED_BID;
            }
        }
        highest = highest.max(bid);
    }
    chance
}

/// How well the world explains the other seats' doublings (加倍, at tables with the
/// option): each is compared with the heuristic's with that seat's hand after the kitty
/// (its hand in the world and every card it played since); each doubling the heuristic
/// would not have chosen multiplies the chance by [`UNEXPLAINED_BID`], a choice as coarse
/// as a bid. The seats in `at_random` are not judged.
fn doublings_explained(view: &View, seat: Seat, world: &State, at_random: &[Seat]) -> f64 {
    let factors = view.doubling.factors();
    if factors.is_empty() || view.landlord.is_none() {
        return 1.0;
    }
    let legal: Vec<Action> = factors.iter().map(|&f| Action::Double(f)).collect();
    let mut dec = Decomposer::default();
    let mut then = view.clone();
    let mut chance = 1.0;
    for by in (0..3).filter(|&by| by != seat && !at_random.contains(&by)) {
        let done = view.doubles[by];
        if done == 0 {
            continue;
        }
        then.seat = Some(by);
        then.hand = Some(world.hands[by].plus(view.played_by(by)));
        if stakes::double(&then, &legal, &mut dec) != Some(Action::Double(done)) {
            chance *= UNEXPLAINED_BID;
        }
    }
    chance
}

/// Calls `at` with each other seat's view, legal actions and action at each of its turns
/// in the play phase that offered a choice, in order, as they would have been in `world`,
/// until `at` says stop. The view is the one that seat had then, but for the multiplier,
/// which stays today's (no bot reads it), and a shown hand (明牌), which is the landlord's
/// hand then.
pub(super) fn choices_then(
    view: &View,
    seat: Seat,
    world: &State,
    mut at: impl FnMut(&View, Seat, &[Action], Action) -> bool,
) {
    if view.phase != Phase::Playing {
        return;
    }
    // The hands as the play phase began: the world's hands and every card played since.
    let mut hands = world.hands;
    let mut sizes = view.hand_sizes;
    for &(by, play) in &view.history {
        if let Some(p) = play {
            hands[by] = hands[by].plus(p.cards());
            sizes[by] += p.size();
        }
    }
    let mut then = view.clone();
    then.history.clear();
    let mut live: Option<(Seat, Play)> = None;
    let mut passes = 0;
    let mut plays = Vec::new();
    let mut legal = Vec::new();
    for &(by, play) in &view.history {
        if by != seat {
            plays.clear();
            legal_plays(hands[by], live.map(|(_, p)| p), &mut plays);
            legal.clear();
            if live.is_some() {
                legal.push(Action::Pass);
            }
            legal.extend(plays.iter().copied().map(Action::Play));
            if legal.len() >= 2 {
                then.seat = Some(by);
                then.hand = Some(hands[by]);
                then.hand_sizes = sizes;
                then.last = live;
                then.to_act = Some(by);
                if let (Some(_), Some(l)) = (view.shown, view.landlord) {
                    then.shown = Some(hands[l]);
                }
                if !at(&then, by, &legal, play.map_or(Action::Pass, Action::Play)) {
                    return;
                }
            }
        }
        match play {
            Some(p) => {
                hands[by] = hands[by].minus(p.cards());
                sizes[by] -= p.size();
                live = Some((by, p));
                passes = 0;
            }
            None => {
                passes += 1;
                if passes == 2 {
                    live = None;
                }
            }
        }
        then.history.push((by, play));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DouDizhu;
    use cards::{Rank, RankCounts};
    use game::search::Determinize;
    use game::{Rules, ToAct, Viewer};

    /// Plays heuristic games and, at every turn, asks how well the true hands explain what
    /// the acting seat has seen the others do; calls `check` with the view, the seat, the
    /// state and the chance.
    fn at_every_turn(games: u64, mut check: impl FnMut(&View, Seat, &State, f64)) {
        let mut bot = HeuristicBot::new(&Seed::from_u64(0));
        let mut events = Vec::new();
        for g in 0..games {
            let Ok(mut state) = DouDizhu::start(&Default::default(), 3, &Seed::from_u64(g)) else {
                panic!("a game starts");
            };
            while let ToAct::Seat(seat) = DouDizhu::to_act(&state) {
                let view = DouDizhu::view(&state, Viewer::Seat(seat));
                check(
                    &view,
                    seat,
                    &state,
                    actions_explained(&view, seat, &state, &[], 0.0),
                );
                let legal = DouDizhu::legal(&state, seat);
                let action = bot.act(&Decision::from_view(&view, seat, &legal));
                assert!(DouDizhu::apply(&mut state, seat, action, &mut events).is_ok());
            }
        }
    }

    #[test]
    fn an_action_is_replayed_with_the_view_its_seat_had() {
        let mut seen: std::collections::HashMap<(Seat, usize), View> = Default::default();
        let mut compared = 0;
        at_every_turn(50, |view, seat, state, _| {
            seen.insert((seat, view.history.len()), view.clone());
            choices_then(view, seat, state, |then, by, _, _| {
                compared += 1;
                // The multiplier and the suits are today's (the heuristic reads neither).
                let had = seen.get(&(by, then.history.len())).map(|v| View {
                    multiplier: then.multiplier,
                    suits: then.suits.clone(),
                    ..v.clone()
                });
                assert_eq!(Some(then), had.as_ref());
                true
            });
        });
        assert!(compared > 100);
    }

    #[test]
    fn the_true_hands_explain_every_action_of_heuristic_players() {
        let mut passes = 0;
        at_every_turn(200, |view, seat, _, chance| {
            passes += view
                .history
                .iter()
                .filter(|(s, p)| *s != seat && p.is_none())
                .count();
            assert_eq!(chance, 1.0, "seat {seat}, history {:?}", view.history);
        });
        assert!(passes > 1_000, "the games had passes to explain: {passes}");
    }

    #[test]
    fn a_world_that_hands_the_passer_an_easy_beat_is_doubted() {
        let mut doubted = 0;
        at_every_turn(100, |view, seat, state, _| {
            // The most recent pass by another seat over a solo lower than a 2: give that
            // seat a spare 2 (taken from the third hand) and the pass is no longer explained.
            let Some(i) = view
                .history
                .iter()
                .rposition(|(s, p)| *s != seat && p.is_none())
            else {
                return;
            };
            let passer = view.history[i].0;
            let Some((_, last)) = view.history[..i]
                .iter()
                .rev()
                .find_map(|&(s, p)| p.map(|p| (s, p)))
            else {
                return;
            };
            let third = 3 - seat - passer;
            let is_low_solo = last.size() == 1 && last.rank() < Rank::Two;
            if !is_low_solo || third == seat || state.hands[third].count(Rank::Two) == 0 {
                return;
            }
            let mut world = state.clone();
            world.hands[third] = world.hands[third].minus(RankCounts::from_ranks([Rank::Two]));
            world.hands[passer] = world.hands[passer].plus(RankCounts::from_ranks([Rank::Two]));
            let chance = actions_explained(view, seat, &world, &[], 0.0);
            if chance < 1.0 {
                doubted += 1;
            }
        });
        assert!(
            doubted > 20,
            "worlds with an easy beat were doubted {doubted} times"
        );
    }

    #[test]
    fn a_random_players_choice_is_judged_by_how_many_it_had() {
        let solo = |r| match Play::classify(RankCounts::from_ranks([r])) {
            Some(p) => Action::Play(p),
            None => panic!("a single {r:?} is a play"),
        };
        let [three, four, five] = [Rank::Three, Rank::Four, Rank::Five].map(solo);
        // A pass with three plays to choose from: a quarter of the chance of a pass with none.
        assert_eq!(
            random_choice_explained(&[Action::Pass, three, four, five], Action::Pass),
            0.25
        );
        // A beat among three: half as likely as the only beat (1/4 over 1/2).
        assert_eq!(
            random_choice_explained(&[Action::Pass, three, four, five], four),
            0.5
        );
        assert_eq!(random_choice_explained(&[Action::Pass, three], three), 1.0);
        // A lead says nothing here, however many there were.
        assert_eq!(random_choice_explained(&[three, four, five], five), 1.0);
    }

    /// How far the worlds dealt for a landlord stand from the true peasant hands, over
    /// `deals` deals of a heuristic landlord against two random peasants, 40 worlds at each
    /// of its turns from the third: per peasant and world, the cards its hand differs by
    /// and whether it is wrong about the peasant holding a 2 or a joker (what decides
    /// whether a high single survives). Worlds dealt with no inference, then worlds kept by
    /// the search's sampler with both peasants playing at random.
    fn reading_random_peasants(deals: u64) -> [(f64, f64); 2] {
        let config = crate::Config {
            landlord: Some(0),
            ..Default::default()
        };
        let mut events = Vec::new();
        let mut sums = [(0.0, 0.0); 2];
        let mut worlds = 0.0;
        let high = |h: RankCounts| {
            [Rank::Two, Rank::BlackJoker, Rank::RedJoker]
                .iter()
                .any(|&r| h.count(r) > 0)
        };
        for deal in 0..deals {
            let seed = Seed::from_u64(77).derive(deal);
            let Ok(mut state) = DouDizhu::start(&config, 3, &seed) else {
                panic!("deal {deal} starts");
            };
            let mut bots: Vec<Box<dyn Bot<DouDizhu>>> = vec![
                Box::new(HeuristicBot::new(&seed)),
                Box::new(game::RandomBot::new(&seed.derive(1))),
                Box::new(game::RandomBot::new(&seed.derive(2))),
            ];
            let mut rng = seed.derive(99).rng();
            let mut turn = 0;
            while let ToAct::Seat(s) = DouDizhu::to_act(&state) {
                let view = DouDizhu::view(&state, Viewer::Seat(s));
                let legal = DouDizhu::legal(&state, s);
                if s == 0 && view.phase == Phase::Playing {
                    turn += 1;
                    for _ in 0..if turn >= 3 { 40 } else { 0 } {
                        let dealt = [
                            DouDizhu::determinize(&view, 0, &mut rng),
                            game::search::sample::<DouDizhu>(&view, 0, &[1, 2], &mut rng),
                        ];
                        for (sum, world) in sums.iter_mut().zip(dealt) {
                            let Some(world) = world else {
                                panic!("a world is dealt");
                            };
                            for p in 1..3 {
                                let (guess, truth) = (world.hands[p], state.hands[p]);
                                let apart: u32 = Rank::ALL
                                    .iter()
                                    .map(|&r| guess.count(r).abs_diff(truth.count(r)))
                                    .sum();
                                sum.0 += f64::from(apart) / 2.0;
                                sum.1 += f64::from(u8::from(high(guess) != high(truth)));
                            }
                        }
                        worlds += 2.0;
                    }
                }
                let action = bots[s].act(&Decision::from_view(&view, s, &legal));
                assert!(DouDizhu::apply(&mut state, s, action, &mut events).is_ok());
            }
        }
        sums.map(|(apart, wrong)| (apart / worlds, wrong / worlds))
    }

    #[test]
    fn random_players_are_read_from_their_passes() {
        let [blind, judged] = reading_random_peasants(100);
        println!(
            "cards apart, wrong about a 2 or a joker: no inference {:.3}, {:.1}%; \
             judged as random players {:.3}, {:.1}%",
            blind.0,
            blind.1 * 100.0,
            judged.0,
            judged.1 * 100.0
        );
        assert!(judged.0 < blind.0 * 0.97, "{judged:?} against {blind:?}");
        assert!(judged.1 < blind.1 * 0.93, "{judged:?} against {blind:?}");
    }

    /// A world in which a peasant who doubled holds a strong hand, and one who did not a
    /// weak one, explains the doublings; the world with the hands the other way round is
    /// kept with a quarter of the chance.
    #[test]
    fn doublings_are_read_as_hand_strength() {
        let rc = |s: &str| -> RankCounts { s.parse().expect("cards") };
        let config = crate::Config {
            doubling: crate::Doubling::Super,
            landlord: Some(2),
            ..Default::default()
        };
        let Ok(mut state) = DouDizhu::start(&config, 3, &Seed::from_u64(3)) else {
            panic!("a deal starts");
        };
        for (seat, factor) in [(0, 2), (1, 1), (2, 1)] {
            assert!(
                DouDizhu::apply(&mut state, seat, Action::Double(factor), &mut Vec::new()).is_ok()
            );
        }
        let mut view = DouDizhu::view(&state, Viewer::Seat(2));
        view.bid = 3;
        let strong = rc("3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7");
        let weak = rc("3 4 5 6 7 9 T J Q K 3 4 6 8 9 J Q");
        let landlord = state.hand(2);
        let world = |hands| State::world(&view, hands, RankCounts::EMPTY, Seed::from_u64(1).rng());
        let explained = doublings_explained(&view, 2, &world([strong, weak, landlord]), &[]);
        let contradicted = doublings_explained(&view, 2, &world([weak, strong, landlord]), &[]);
        assert_eq!((explained, contradicted), (1.0, 0.25));
        assert_eq!(
            doublings_explained(&view, 2, &world([weak, strong, landlord]), &[0, 1]),
            1.0,
            "the doublings of seats playing at random say nothing"
        );
    }
}
