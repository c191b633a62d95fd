//! Parameters that tuning scripts try without rebuilding: `param(name,
//! default)` is `default`, or with the `tuning` feature the value that
//! `GUANDAN_RULE_PARAMS` (`"name=value,..."`, read once) gives `name`
//! (benches/rule_tuning.py). The rule policy's and the focused search's
//! constants go through it, and those of the model its weighted worlds
//! read (`search::decide::INFER_MAX_CARDS`, `INFER_EPSILON`).

/// `default`, or the value `GUANDAN_RULE_PARAMS` gives `name` (the `tuning` feature).
#[cfg(not(feature = "tuning"))]
#[inline(always)]
pub fn param(_name: &str, default: i32) -> i32 {
    default
}

/// `default`, or the value `GUANDAN_RULE_PARAMS` gives `name` (the `tuning` feature).
#[cfg(feature = "tuning")]
pub fn param(name: &str, default: i32) -> i32 {
    static PARAMS: std::sync::OnceLock<Vec<(String, i32)>> = std::sync::OnceLock::new();
    let params = PARAMS.get_or_init(|| {
        let text = std::env::var("GUANDAN_RULE_PARAMS").unwrap_or_default();
        text.split(',')
            .filter(|kv| !kv.trim().is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("GUANDAN_RULE_PARAMS holds name=value pairs");
                (k.trim().to_string(), v.trim().parse().expect("an integer value"))
            })
            .collect()
    });
    params.iter().find(|(k, _)| k == name).map_or(default, |&(_, v)| v)
}
