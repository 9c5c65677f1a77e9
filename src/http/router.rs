//! Matching a method and path against the static route table: a route with its path parameters,
//! or 404, or 405 with the methods the path does allow.

use http::Method;

use super::routes::{ROUTES, Route};

pub enum Match {
    Found {
        route: &'static Route,
        params: Vec<(&'static str, String)>,
    },
    /// The path exists but not for this method; `allow` lists the methods it has.
    MethodNotAllowed {
        allow: String,
    },
    NotFound,
}

/// `path` is the request path; API routes are matched below `base` (`/api/v1/regional`).
pub fn find(base: &str, method: &Method, path: &str) -> Match {
    let mut allowed: Vec<&str> = Vec::new();
    let api = path.strip_prefix(base);
    for route in ROUTES {
        let relative = if route.root { Some(path) } else { api };
        // Most routes differ from the path before their first parameter: a comparison of bytes
        // rules them out, where splitting both into segments took most of a lookup.
        let Some(params) = relative
            .filter(|p| p.starts_with(route.fixed()))
            .and_then(|p| match_path(route.path, p))
        else {
            continue;
        };
        if route.method == method || (method == Method::HEAD && route.method == Method::GET) {
            return Match::Found { route, params };
        }
        allowed.push(route.method.as_str());
        if route.method == Method::GET {
            allowed.push("HEAD");
        }
    }
    if allowed.is_empty() {
        Match::NotFound
    } else {
        allowed.push("OPTIONS");
        Match::MethodNotAllowed {
            allow: allowed.join(", "),
        }
    }
}

/// Matches `/regions/{region_code}/profile` against `/regions/DE21/profile`; segments are
/// percent-decoded; an empty parameter, or one holding a control character, never matches. A
/// parameter segment may end in a fixed suffix (`{dataset_code}.csv`), which must be present
/// and is not part of the value.
fn match_path(template: &'static str, path: &str) -> Option<Vec<(&'static str, String)>> {
    let mut params = Vec::new();
    let mut given = path.split('/');
    for want in template.split('/') {
        let got = given.next()?;
        if let Some((name, suffix)) = want.strip_prefix('{').and_then(|w| w.split_once('}')) {
            let value = got.strip_suffix(suffix)?;
            if value.is_empty() {
                return None;
            }
            // A control character names no object: the path is no route's (404).
            let value = super::query::decode(value)?;
            if crate::text::control_char(&value).is_some() {
                return None;
            }
            params.push((name, value));
        } else if want != got {
            return None;
        }
    }
    given.next().is_none().then_some(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "/api/v1/regional";

    #[test]
    fn finds_routes_with_parameters() {
        match find(BASE, &Method::GET, "/api/v1/regional/regions/DE21/profile") {
            Match::Found { route, params } => {
                assert_eq!(route.operation_id, "getRegionProfile");
                assert_eq!(params, vec![("region_code", "DE21".to_string())]);
            }
            _ => panic!("profile route not found"),
        }
        assert!(matches!(
            find(BASE, &Method::GET, "/healthz"),
            Match::Found { .. }
        ));
        assert!(matches!(
            find(BASE, &Method::HEAD, "/healthz"),
            Match::Found { .. }
        ));
    }

    #[test]
    fn unknown_paths_and_methods() {
        assert!(matches!(
            find(BASE, &Method::GET, "/api/v1/regional/nope"),
            Match::NotFound
        ));
        assert!(matches!(
            find(BASE, &Method::GET, "/api/v1/regional/regions/"),
            Match::NotFound
        ));
        assert!(matches!(
            find(BASE, &Method::GET, "/regions"),
            Match::NotFound
        ));
        for path in ["/datasets/x%00", "/regions/DE%0A21", "/citations/cit_%7F"] {
            assert!(
                matches!(
                    find(BASE, &Method::GET, &format!("{BASE}{path}")),
                    Match::NotFound
                ),
                "{path}"
            );
        }
        assert!(matches!(
            find(BASE, &Method::GET, "/api/v1/other/regions"),
            Match::NotFound
        ));
        match find(BASE, &Method::DELETE, "/api/v1/regional/regions") {
            Match::MethodNotAllowed { allow } => assert_eq!(allow, "GET, HEAD, OPTIONS"),
            _ => panic!("expected 405"),
        }
    }

    #[test]
    fn route_table_has_no_duplicates() {
        for (i, a) in ROUTES.iter().enumerate() {
            for b in &ROUTES[i + 1..] {
                assert!(
                    !(a.method == b.method && a.path == b.path && a.root == b.root),
                    "{} {} twice",
                    a.method,
                    a.path
                );
                assert_ne!(a.operation_id, b.operation_id);
            }
        }
    }
}
