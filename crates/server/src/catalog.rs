//! The games a hall offers, as its lobby and API describe them: each game's names, seats,
//! bots, levels and default configuration, read from the registry (so a game added to the
//! registry is offered without a line here).

use crate::protocol::GameInfo;
use game::{ErasedGame, Registry};

/// Every game of `registry`, described for the lobby and `GET /api/games`.
pub fn games(registry: &Registry) -> Vec<GameInfo> {
    registry
        .games()
        .map(|g| {
            let seats = g.seats(&serde_json::Value::Null).unwrap_or(1..=1);
            let shown = g.presentation();
            GameInfo {
                id: g.id().into(),
                name: g.name().into(),
                seats: [*seats.start(), *seats.end()],
                bots: g.bot_names().iter().map(|b| b.to_string()).collect(),
                config: g.default_config(),
                help: g.help().into(),
                name_zh: shown.name_zh.into(),
                name_en: shown.name_en.into(),
                blurb_zh: shown.blurb_zh.into(),
                blurb_en: shown.blurb_en.into(),
                icon: shown.icon.into(),
                screen: shown.screen.into(),
                levels: g
                    .levels()
                    .into_iter()
                    .map(|(name, bot)| crate::protocol::LevelInfo {
                        name: name.into(),
                        bot: bot.into(),
                    })
                    .collect(),
                default_level: level_of(g, g.default_bot()).map(str::to_string),
            }
        })
        .collect()
}

/// The level `game` offers whose bot is `bot`, if any.
pub fn level_of(game: &dyn ErasedGame, bot: &str) -> Option<&'static str> {
    game.levels()
        .into_iter()
        .find(|(_, b)| *b == bot)
        .map(|(name, _)| name)
}
