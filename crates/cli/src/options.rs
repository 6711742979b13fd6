//! Table options typed as `KEY=VALUE`, as `qipai sim --set` and `create` in `qipai connect`
//! take them.

/// Sets one option of a game's configuration from `KEY=VALUE` text (the value read as
/// JSON, or else taken as a string), as `qipai sim --set` and `create` in `qipai connect`
/// take them. A null configuration becomes an object.
pub fn set_option(config: &mut serde_json::Value, option: &str) -> anyhow::Result<()> {
    let Some((key, value)) = option.split_once('=') else {
        anyhow::bail!("an option is KEY=VALUE, not '{option}'");
    };
    let value = serde_json::from_str(value)
        .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
    if config.is_null() {
        *config = serde_json::json!({});
    }
    match config.as_object_mut() {
        Some(map) => {
            map.insert(key.trim().to_string(), value);
            Ok(())
        }
        None => anyhow::bail!("options need the configuration to be a JSON object"),
    }
}
