//! The one way every list pages. A request takes `limit` (items per page: each list its own
//! default and maximum) and `cursor` (the `meta.next_cursor` of the previous page, passed back
//! as it came: opaque to the client). An answer's `meta` has `next_cursor` (null on the last
//! page), `limit` (the page size used) and, where counting the whole list is cheap, `total`. A
//! cursor that names no item of the list (another account's, or made up) gives an empty last
//! page, as one past the end does.

use serde_json::{Value, json};

use super::error::ApiError;
use super::query::Query;

/// Cursors are identifiers and codes: anything longer is refused before it is looked up.
const MAX_CURSOR_CHARS: usize = 100;

/// A page asked for.
pub struct PageRequest {
    pub limit: usize,
    pub cursor: Option<String>,
}

impl PageRequest {
    /// `limit` (from 1 to `max`, `default` when absent) and `cursor` from the query.
    pub fn take(query: &mut Query, default: usize, max: usize) -> Result<PageRequest, ApiError> {
        let max_limit = i64::try_from(max).unwrap_or(i64::MAX);
        let limit = query
            .take_int("limit", 1, max_limit)?
            .map_or(default, |n| n as usize);
        let cursor = query.take("cursor");
        if cursor
            .as_deref()
            .is_some_and(|c| c.is_empty() || c.chars().count() > MAX_CURSOR_CHARS)
        {
            return Err(ApiError::invalid(
                "cursor",
                "cursor must be the meta.next_cursor of a previous page",
            ));
        }
        Ok(PageRequest { limit, cursor })
    }

    /// Pages a list held whole in memory, in its order: up to `limit` items after the one whose
    /// cursor (`cursor_of`, unique in the list) is the one asked for, and the next page's cursor.
    pub fn page_in_memory<T>(
        &self,
        items: Vec<T>,
        cursor_of: impl Fn(&T) -> String,
    ) -> (Vec<T>, Option<String>) {
        let start = match &self.cursor {
            None => 0,
            Some(cursor) => match items.iter().position(|item| cursor_of(item) == *cursor) {
                Some(at) => at + 1,
                None => items.len(),
            },
        };
        let mut page: Vec<T> = items.into_iter().skip(start).take(self.limit + 1).collect();
        let next = self.trim_to_limit(&mut page, cursor_of);
        (page, next)
    }

    /// For a list read `limit + 1` items at a time: drops the extra item, whose presence says
    /// there is a next page, and gives that page's cursor (the last item kept's).
    pub fn trim_to_limit<T>(
        &self,
        page: &mut Vec<T>,
        cursor_of: impl Fn(&T) -> String,
    ) -> Option<String> {
        if page.len() <= self.limit {
            return None;
        }
        page.truncate(self.limit);
        page.last().map(cursor_of)
    }

    /// The list's `meta` fields for this page.
    pub fn meta(&self, next_cursor: Option<String>, total: Option<usize>) -> Value {
        let mut meta = json!({ "limit": self.limit, "next_cursor": next_cursor });
        if let Some(total) = total {
            meta["total"] = json!(total);
        }
        meta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(limit: usize, cursor: Option<&str>) -> PageRequest {
        PageRequest {
            limit,
            cursor: cursor.map(str::to_owned),
        }
    }

    #[test]
    fn a_list_in_memory_is_walked_page_by_page_to_its_end() {
        let items = || vec!["a", "b", "c", "d", "e"];
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let (items, next) =
                page(2, cursor.as_deref()).page_in_memory(items(), |s| s.to_string());
            seen.extend(items);
            match next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, items());
        // A page that ends exactly at the end of the list has no next page.
        assert_eq!(
            page(5, None).page_in_memory(items(), |s| s.to_string()).1,
            None
        );
        assert_eq!(
            page(2, Some("b"))
                .page_in_memory(items(), |s| s.to_string())
                .1
                .as_deref(),
            Some("d")
        );
    }

    #[test]
    fn a_cursor_that_names_no_item_gives_an_empty_last_page() {
        let (items, next) = page(2, Some("zz")).page_in_memory(vec!["a", "b"], |s| s.to_string());
        assert!(items.is_empty());
        assert_eq!(next, None);
    }

    #[test]
    fn limit_and_cursor_are_checked() {
        let mut query = Query::parse(Some("limit=0")).unwrap();
        assert!(PageRequest::take(&mut query, 10, 100).is_err());
        let mut query = Query::parse(Some("limit=101")).unwrap();
        assert!(PageRequest::take(&mut query, 10, 100).is_err());
        let mut query = Query::parse(Some("cursor=")).unwrap();
        assert!(PageRequest::take(&mut query, 10, 100).is_err());
        let long = format!("cursor={}", "x".repeat(101));
        assert!(PageRequest::take(&mut Query::parse(Some(&long)).unwrap(), 10, 100).is_err());
        let mut query = Query::parse(Some("cursor=brf_1&limit=7")).unwrap();
        let page = PageRequest::take(&mut query, 10, 100).unwrap();
        assert_eq!((page.limit, page.cursor.as_deref()), (7, Some("brf_1")));
        assert_eq!(
            page.meta(Some("x".into()), Some(3)),
            json!({"limit": 7, "next_cursor": "x", "total": 3})
        );
        assert_eq!(
            page.meta(None, None),
            json!({"limit": 7, "next_cursor": null})
        );
    }
}
