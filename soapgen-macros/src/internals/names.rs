//! Names: a Rust field's or variant's XML name by a `rename_all` rule, and the local variables
//! generated code reads a field into.

use quote::format_ident;

/// A slot identifier for field number `i` named `name`.
pub fn slot_ident(i: usize, name: &str) -> syn::Ident {
    format_ident!("__f{}_{}", i, name.trim_start_matches("r#"))
}

/// Converts a Rust identifier (snake_case field or PascalCase variant) by a `rename_all` rule.
pub fn rename_all(rule: &str, ident: &str) -> Option<String> {
    let ident = ident.trim_start_matches("r#");
    // Split into words at underscores and lower→upper boundaries.
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in ident.chars() {
        if c == '_' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let cap = |w: &str| {
        let mut cs = w.chars();
        match cs.next() {
            Some(f) => f.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase(),
            None => String::new(),
        }
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    Some(match rule {
        "lowercase" => lower.concat(),
        "UPPERCASE" => lower.concat().to_uppercase(),
        "camelCase" => {
            let mut s = lower.first().cloned().unwrap_or_default();
            for w in &lower[1.min(lower.len())..] {
                s.push_str(&cap(w));
            }
            s
        }
        "PascalCase" => lower.iter().map(|w| cap(w)).collect(),
        "snake_case" => lower.join("_"),
        "SCREAMING_SNAKE_CASE" => lower.join("_").to_uppercase(),
        "kebab-case" => lower.join("-"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::rename_all;

    #[test]
    fn renames() {
        assert_eq!(rename_all("camelCase", "first_name").unwrap(), "firstName");
        assert_eq!(rename_all("PascalCase", "first_name").unwrap(), "FirstName");
        assert_eq!(rename_all("camelCase", "FirstName").unwrap(), "firstName");
        assert_eq!(rename_all("kebab-case", "FirstName").unwrap(), "first-name");
        assert_eq!(rename_all("SCREAMING_SNAKE_CASE", "a_b").unwrap(), "A_B");
        assert!(rename_all("nope", "a").is_none());
    }
}
