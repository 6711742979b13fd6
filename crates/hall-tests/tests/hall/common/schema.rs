//! A JSON Schema validator for the protocol's schema: the keywords of draft 2020-12 that
//! `schemars` writes (`type`, `properties`, `required`, `additionalProperties`, `items`,
//! `prefixItems`, `anyOf`, `oneOf`, `const`, `enum`, `$ref` into `$defs`, the numeric
//! bounds and the integer formats), checked the way the draft says.
//!
//! Written for the tests rather than taken from a crate: a general validator (with
//! regular expressions, big numbers, remote references and every format) was the largest
//! unit of the tests' build, for the dozen keywords used here. A schema that uses any
//! keyword this module does not know is refused when the validator is made, so a new
//! keyword from `schemars` fails the tests loudly instead of going unchecked.

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// Keywords that only describe: nothing to check.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords checked here, besides the annotations and `$defs`.
const CHECKED: &[&str] = &[
    "$ref",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "format",
];

/// A schema ready to check instances against.
pub struct Validator {
    root: Value,
}

impl Validator {
    /// Takes `root` (its `$ref`s point into it); refuses a schema with a keyword this
    /// module does not check, or a `$ref` it cannot follow.
    pub fn new(root: &Value) -> Result<Validator, String> {
        let validator = Validator { root: root.clone() };
        validator.known(root, "#")?;
        Ok(validator)
    }

    /// Every way `instance` breaks the schema, each as `path: what`; empty when it fits.
    pub fn errors(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(&self.root, instance, "", &mut errors);
        errors
    }

    /// Whether `instance` fits the schema.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.errors(instance).is_empty()
    }

    /// Walks the schema at `at`, refusing unknown keywords and unresolved references.
    fn known(&self, schema: &Value, at: &str) -> Result<(), String> {
        let object = match schema {
            Value::Bool(_) => return Ok(()),
            Value::Object(o) => o,
            other => return Err(format!("{at}: a schema is an object or a boolean: {other}")),
        };
        for (key, value) in object {
            let here = format!("{at}/{key}");
            match key.as_str() {
                "$defs" | "properties" => {
                    for (name, sub) in value.as_object().ok_or(format!("{here}: not an object"))? {
                        self.known(sub, &format!("{here}/{name}"))?;
                    }
                }
                "items" | "additionalProperties" | "not" => self.known(value, &here)?,
                "prefixItems" | "anyOf" | "oneOf" | "allOf" => {
                    let list = value.as_array().ok_or(format!("{here}: not an array"))?;
                    for (i, sub) in list.iter().enumerate() {
                        self.known(sub, &format!("{here}/{i}"))?;
                    }
                }
                "$ref" => {
                    let target = value.as_str().ok_or(format!("{here}: not a string"))?;
                    self.resolve(target)
                        .ok_or(format!("{here}: {target} is not in the schema"))?;
                }
                k if ANNOTATIONS.contains(&k) || CHECKED.contains(&k) => {}
                k => {
                    return Err(format!(
                        "{here}: the keyword {k} is not checked by the tests"
                    ))
                }
            }
        }
        Ok(())
    }

    /// The schema a local reference (`#/$defs/Name`) points at.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        self.root.pointer(reference.strip_prefix('#')?)
    }

    fn check(&self, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
        let schema = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return errors.push(format!("{path}: nothing is allowed here")),
            Value::Object(o) => o,
            _ => return,
        };
        let mut fail = |what: String| errors.push(format!("{path}: {what}"));
        if let Some(types) = schema.get("type") {
            let allowed: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !allowed.iter().any(|t| is_type(value, t)) {
                fail(format!("{value} is not of type {}", allowed.join(" or ")));
            }
        }
        if let Some(expected) = schema.get("const") {
            if !same(expected, value) {
                fail(format!("{value} is not {expected}"));
            }
        }
        if let Some(Value::Array(options)) = schema.get("enum") {
            if !options.iter().any(|o| same(o, value)) {
                fail(format!(
                    "{value} is not one of {}",
                    Value::Array(options.clone())
                ));
            }
        }
        if let Some(n) = value.as_f64() {
            bounds(schema, value, n, &mut fail);
        }
        if let Value::Object(fields) = value {
            self.object(schema, fields, path, errors);
        }
        if let Value::Array(items) = value {
            self.array(schema, items, path, errors);
        }
        self.combined(schema, value, path, errors);
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            match self.resolve(target) {
                Some(sub) => self.check(sub, value, path, errors),
                None => errors.push(format!("{path}: {target} is not in the schema")),
            }
        }
    }

    /// `properties`, `required`, `additionalProperties`.
    fn object(
        &self,
        schema: &Map<String, Value>,
        fields: &Map<String, Value>,
        path: &str,
        errors: &mut Vec<String>,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !fields.contains_key(name) {
                errors.push(format!("{path}: {name} is missing"));
            }
        }
        for (name, field) in fields {
            let here = format!("{path}/{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(sub) => self.check(sub, field, &here, errors),
                None => {
                    if let Some(extra) = schema.get("additionalProperties") {
                        if extra == &Value::Bool(false) {
                            errors.push(format!("{here}: no such property"));
                        } else {
                            self.check(extra, field, &here, errors);
                        }
                    }
                }
            }
        }
    }

    /// `prefixItems`, `items`, `minItems`, `maxItems`.
    fn array(
        &self,
        schema: &Map<String, Value>,
        items: &[Value],
        path: &str,
        errors: &mut Vec<String>,
    ) {
        let prefix = schema
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (i, item) in items.iter().enumerate() {
            if let Some(sub) = prefix.get(i).or(schema.get("items")) {
                self.check(sub, item, &format!("{path}/{i}"), errors);
            }
        }
        let count = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if count < min {
                errors.push(format!("{path}: {count} items, fewer than {min}"));
            }
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
            if count > max {
                errors.push(format!("{path}: {count} items, more than {max}"));
            }
        }
    }

    /// `anyOf`, `oneOf`, `allOf`, `not`. A value that fits no branch is told the errors
    /// of the branch it came nearest to.
    fn combined(
        &self,
        schema: &Map<String, Value>,
        value: &Value,
        path: &str,
        errors: &mut Vec<String>,
    ) {
        for sub in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(sub, value, path, errors);
        }
        if let Some(sub) = schema.get("not") {
            let mut inner = Vec::new();
            self.check(sub, value, path, &mut inner);
            if inner.is_empty() {
                errors.push(format!("{path}: {value} fits what `not` forbids"));
            }
        }
        for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            let Some(branches) = schema.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let results: Vec<Vec<String>> = branches
                .iter()
                .map(|b| {
                    let mut inner = Vec::new();
                    self.check(b, value, path, &mut inner);
                    inner
                })
                .collect();
            let fits = results.iter().filter(|r| r.is_empty()).count();
            if fits == 0 {
                let nearest = results
                    .iter()
                    .min_by_key(|r| r.len())
                    .cloned()
                    .unwrap_or_default();
                let mut text = format!(
                    "fits none of the {} schemas of {keyword}; nearest:",
                    branches.len()
                );
                for e in nearest {
                    let _ = write!(text, "\n    {e}");
                }
                errors.push(format!("{path}: {text}"));
            } else if exactly_one && fits > 1 {
                errors.push(format!(
                    "{path}: fits {fits} schemas of oneOf, not exactly one"
                ));
            }
        }
    }
}

/// Whether `value` is of the JSON Schema type `name`.
fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// Equality as JSON Schema means it: numbers by value (`1` is `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The numeric keywords, and the integer formats `schemars` writes (`uint8`…`int64`),
/// whose ranges a Rust integer of that size holds.
fn bounds(schema: &Map<String, Value>, value: &Value, n: f64, fail: &mut impl FnMut(String)) {
    let number = |k: &str| schema.get(k).and_then(Value::as_f64);
    if number("minimum").is_some_and(|m| n < m) {
        fail(format!(
            "{value} is less than the minimum {}",
            schema["minimum"]
        ));
    }
    if number("maximum").is_some_and(|m| n > m) {
        fail(format!(
            "{value} is more than the maximum {}",
            schema["maximum"]
        ));
    }
    if number("exclusiveMinimum").is_some_and(|m| n <= m) {
        fail(format!(
            "{value} is not more than {}",
            schema["exclusiveMinimum"]
        ));
    }
    if number("exclusiveMaximum").is_some_and(|m| n >= m) {
        fail(format!(
            "{value} is not less than {}",
            schema["exclusiveMaximum"]
        ));
    }
    if number("multipleOf").is_some_and(|m| m > 0.0 && (n / m).fract() != 0.0) {
        fail(format!(
            "{value} is not a multiple of {}",
            schema["multipleOf"]
        ));
    }
    let range = match schema.get("format").and_then(Value::as_str) {
        Some("uint8") => Some((0.0, f64::from(u8::MAX))),
        Some("uint16") => Some((0.0, f64::from(u16::MAX))),
        Some("uint32") => Some((0.0, f64::from(u32::MAX))),
        Some("uint64" | "uint") => Some((0.0, u64::MAX as f64)),
        Some("int8") => Some((f64::from(i8::MIN), f64::from(i8::MAX))),
        Some("int16") => Some((f64::from(i16::MIN), f64::from(i16::MAX))),
        Some("int32") => Some((f64::from(i32::MIN), f64::from(i32::MAX))),
        Some("int64" | "int") => Some((i64::MIN as f64, i64::MAX as f64)),
        _ => None,
    };
    if let Some((lo, hi)) = range {
        let integer = value.is_i64() || value.is_u64();
        if !integer || n < lo || n > hi {
            fail(format!("{value} is not a {}", schema["format"]));
        }
    }
}
