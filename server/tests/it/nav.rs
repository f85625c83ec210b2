//! The navigation every signed-in page shares: which sections it links to for each role, and
//! which link it marks as the current page.

use crate::common::app;

/// The links written inside the nav bar of a page, in order: `(href, marked current)`. The
/// admin-only links wait for the user's role: on the overview (sent in one piece) they are
/// inside the bar; on a streamed page they come later in the document, moved into the bar by
/// its swap script.
fn nav_links(html: &str) -> Vec<(String, bool)> {
    let start = html
        .find("id=\"mainnav\"")
        .expect("the page has the nav bar");
    let nav = &html[start..start + html[start..].find("</nav>").expect("the nav bar ends")];
    nav.split("<a ")
        .skip(1)
        .map(|link| {
            let tag = &link[..link.find('>').expect("the link's tag ends")];
            let href = tag
                .split("href=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .expect("the link has an href");
            (href.to_owned(), tag.contains("aria-current=\"page\""))
        })
        .collect()
}

const SECTIONS: [&str; 7] = [
    "/",
    "/lhc",
    "/lms",
    "/gslb",
    "/autoscale",
    "/alerts",
    "/history",
];

#[tokio::test]
async fn the_nav_links_the_sections_a_role_may_open_and_marks_the_current_page_only() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    for page in ["/", "/lhc", "/history", "/lms/store", "/gslb/sites/nowhere"] {
        let html = app.page_html(page, Some(&viewer)).await;
        let links = nav_links(&html);
        let hrefs: Vec<&str> = links.iter().map(|(href, _)| href.as_str()).collect();
        assert_eq!(hrefs, SECTIONS, "a viewer's nav on {page}");
        assert!(
            !html.contains("href=\"/audit\"") && !html.contains("href=\"/users\""),
            "a viewer is not sent the admin's links ({page})"
        );
        // Exactly the page's own section, and none below it (`/lms/store` is not `/lms`).
        let current: Vec<&str> = links
            .iter()
            .filter(|(_, current)| *current)
            .map(|(href, _)| href.as_str())
            .collect();
        let expected: Vec<&str> = SECTIONS.into_iter().filter(|s| *s == page).collect();
        assert_eq!(current, expected, "the current link on {page}");
        assert_eq!(
            html.matches("aria-current=\"page\"").count(),
            expected.len(),
            "no other link of {page} is marked current"
        );
    }

    let admin = app.sign_in("admin").await;
    let links = nav_links(&app.page_html("/", Some(&admin)).await);
    let mut all = SECTIONS.to_vec();
    all.extend(["/audit", "/users"]);
    let hrefs: Vec<&str> = links.iter().map(|(href, _)| href.as_str()).collect();
    assert_eq!(hrefs, all, "an admin's nav on the overview");
    assert_eq!(
        links.iter().filter(|(_, current)| *current).count(),
        1,
        "{links:?}"
    );
    assert_eq!(links.first(), Some(&("/".to_owned(), true)));
    let users = app.page_html("/users", Some(&admin)).await;
    assert_eq!(users.matches("aria-current=\"page\"").count(), 1);
    assert!(users.contains("<a href=\"/users\" aria-current=\"page\">Users</a>"));
}
