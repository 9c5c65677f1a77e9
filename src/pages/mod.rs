//! The pages of the host's root: what the service is (`/`), the account area (`/account/...`)
//! and the API reference (`/docs`). All of it is built once at start and embedded in the binary:
//! air-gapped sites have no CDN. The pages are static HTML; one embedded script drives the
//! account area through the JSON API with the browser's session cookie and its CSRF token, so no
//! page ever holds a secret on the server side, and a secret shown once lives only in the page's
//! memory (a reload forgets it).

mod docs;
mod html;

pub use html::escape;

use std::fmt::Write as _;

use hyper::body::Bytes;
use serde_json::Value;

/// The account area's script, stylesheet and icon, served under `/assets/`.
pub const SCRIPT: &[u8] = include_bytes!("assets/account.js");
pub const STYLE: &[u8] = include_bytes!("assets/style.css");
pub const ICON: &[u8] = include_bytes!("assets/icon.svg");

/// The policy of every page: scripts, styles and images from this host only, nothing inline
/// (no `unsafe-inline` anywhere), fetches to this host only, forms posting here, no framing.
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Every page, rendered.
pub struct Pages {
    pub home: Bytes,
    pub login: Bytes,
    pub api_keys: Bytes,
    pub webhooks: Bytes,
    pub usage: Bytes,
    pub docs: Bytes,
}

/// Where a page sits: the public part, or the signed-in area (which has the sign-out button and
/// the in-page confirmation dialog).
#[derive(Clone, Copy, PartialEq)]
enum Area {
    Public,
    Account,
}

impl Pages {
    /// `base_url` is the API's base URL as the OpenAPI document gives it (absolute when the
    /// public URL is configured, else a path, which the script completes with the page's origin);
    /// `base_path` is where the API is mounted on this host.
    pub fn new(base_url: &str, base_path: &str, openapi: &Value) -> Pages {
        let page = |path, title, area, main: &str| layout(path, title, area, base_path, main);
        let home = include_str!("assets/home.html")
            .replace("{base_url}", &escape(base_url))
            .replace("{base_path}", &escape(base_path));
        Pages {
            home: page(
                "/",
                "Regional statistics with citations",
                Area::Public,
                &home,
            ),
            login: page(
                "/account/login",
                "Sign in",
                Area::Public,
                include_str!("assets/login.html"),
            ),
            api_keys: page(
                "/account/api-keys",
                "API keys",
                Area::Account,
                include_str!("assets/api-keys.html"),
            ),
            webhooks: page(
                "/account/webhooks",
                "Webhooks",
                Area::Account,
                include_str!("assets/webhooks.html"),
            ),
            usage: page(
                "/account/usage",
                "Usage",
                Area::Account,
                include_str!("assets/usage.html"),
            ),
            docs: page(
                "/docs",
                "API reference",
                Area::Public,
                &docs::render(openapi),
            ),
        }
    }
}

const NAV: [(&str, &str); 5] = [
    ("/explore", "Explore"),
    ("/docs", "API reference"),
    ("/account/api-keys", "API keys"),
    ("/account/webhooks", "Webhooks"),
    ("/account/usage", "Usage"),
];

/// An explorer page in the frame of every page (its content rendered per request).
pub fn explore_page(title: &str, base_path: &str, main: &str) -> Bytes {
    layout("/explore", title, Area::Public, base_path, main)
}

/// A page saying why a page could not be shown: the status, the error's code and message, and
/// the request id to quote.
pub fn error_page(
    base_path: &str,
    status: u16,
    code: &str,
    message: &str,
    request_id: &str,
) -> Bytes {
    let main = format!(
        "<h1>{status}: {}</h1><p data-testid=\"error-message\">{}</p>\
         <p class=\"help\">Error code <code>{}</code>, request id <code class=\"request-id\">{}</code>.</p>\
         {}<p><a href=\"/explore\">Back to the explorer</a></p>",
        escape(
            http::StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("Error")
        ),
        escape(message),
        escape(code),
        escape(request_id),
        if status == 401 {
            "<p><a href=\"/account/login\">Sign in</a> to see this page: it shows what only an account may read.</p>"
        } else {
            ""
        },
    );
    layout("", "Not shown", Area::Public, base_path, &main)
}

/// The frame of every page: head (the one stylesheet and script), skip link, navigation with the
/// current page marked, and `main`. The script finds the API under `data-api`.
fn layout(path: &str, title: &str, area: Area, base_path: &str, main: &str) -> Bytes {
    let nav: String = NAV
        .iter()
        .map(|(href, label)| {
            let current = if *href == path {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!("<li><a href=\"{href}\"{current}>{label}</a></li>")
        })
        .collect();
    let (sign_out, dialog) = match area {
        Area::Public => ("", ""),
        Area::Account => (
            "<button type=\"button\" class=\"link\" id=\"sign-out\" data-testid=\"sign-out\">Sign out</button>",
            include_str!("assets/confirm.html"),
        ),
    };
    // Sized for the whole page at once: a map's `main` is most of a megabyte, which a growing
    // buffer would copy again at every doubling.
    let mut page = String::with_capacity(main.len() + nav.len() + dialog.len() + 1024);
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\" data-api=\"{api}\" data-page=\"{path}\">\
         <head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · regintel</title><link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">\
         <link rel=\"stylesheet\" href=\"/assets/style.css\"><script src=\"/assets/account.js\" defer></script></head>\
         <body><a class=\"skip\" href=\"#main\">Skip to content</a>\
         <header class=\"site\"><a class=\"brand\" href=\"/\">regintel</a>\
         <nav aria-label=\"Main\"><ul>{nav}</ul></nav>{sign_out}</header>\
         <main id=\"main\" tabindex=\"-1\">{main}</main>{dialog}\
         <footer class=\"site\"><p>regintel {version} · <a href=\"{api}/openapi.json\">OpenAPI document</a></p></footer>\
         </body></html>\n",
        api = escape(base_path),
        title = escape(title),
        version = env!("CARGO_PKG_VERSION"),
    );
    Bytes::from(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn text(b: &Bytes) -> &str {
        std::str::from_utf8(b).unwrap()
    }

    #[test]
    fn pages_have_no_inline_script_or_style() {
        let pages = Pages::new(
            "/api/v1/regional",
            "/api/v1/regional",
            &serde_json::json!({}),
        );
        for page in [
            &pages.home,
            &pages.login,
            &pages.api_keys,
            &pages.webhooks,
            &pages.usage,
            &pages.docs,
        ] {
            let html = text(page);
            assert_eq!(html.matches("<script").count(), 1, "{html}");
            assert!(html.contains("<script src=\"/assets/account.js\" defer></script>"));
            for inline in [
                "<style",
                " style=",
                " onclick=",
                " onsubmit=",
                "javascript:",
            ] {
                assert!(!html.contains(inline), "{inline} in {html}");
            }
            // Were the script not to run, a form would be sent by the browser itself: never as
            // a GET, which would put a password or a key's name in the URL.
            for form in html.split("<form").skip(1) {
                let tag = form.split('>').next().unwrap();
                assert!(
                    tag.contains("method=\"post\"") || tag.contains("method=\"dialog\""),
                    "<form{tag}>"
                );
            }
        }
    }

    #[test]
    fn the_current_page_is_marked_and_only_the_area_can_sign_out() {
        let pages = Pages::new("https://x.example/api", "/api", &serde_json::json!({}));
        let keys = text(&pages.api_keys);
        assert!(keys.contains("<a href=\"/account/api-keys\" aria-current=\"page\">"));
        assert!(keys.contains("data-testid=\"sign-out\""));
        assert!(keys.contains("data-api=\"/api\""));
        assert!(!text(&pages.login).contains("sign-out"));
        assert!(text(&pages.home).contains("https://x.example/api"));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }
}
