//! GSLB, the MEP links page: every link of the topology (the parents' mesh and each child's
//! link to its current parent) with its status, each direction and its round-trip time,
//! searched by either end, filtered by kind and status, sorted and paged on the server. Each
//! end links to its site's page, where a link is cut or restored.

use engine::gslb::views::{LinkKind, LinkView};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::gslb::gslb_links;
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::list_url::{matching_summary, ListUrl};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::topology::{status_class, status_label};
use crate::model::gslb_links::{
    LinkPage, LinkSort, LINK_KINDS, LINK_PAGE_SIZE, LINK_SORTS, LINK_STATUSES,
};
use crate::pages::gslb::GslbNav;
use crate::pages::gslb_site::direction_text;
use crate::pages::Loaded;
use crate::time_travel::{use_as_of, AsOf};

/// The filters a sort or a page keeps.
const FILTERS: [&str; 3] = ["q", "kind", "status"];

/// The MEP links page.
#[component]
pub fn GslbLinksPage() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            (q.get("q"), q.get("kind"), q.get("status")),
            q.get("sort"),
            q.get("desc").map(|d| d == "1"),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
        )
    });
    let links = answer(
        move || (params.get(), as_of.get()),
        |(((q, kind, status), sort, desc, page), as_of)| {
            gslb_links(q, kind, status, sort, desc, page, as_of.at, as_of.run)
        },
    );
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <Title text="MEP links"/>
        <LiveRefresh engine="gslb"/>
        <h1>"GSLB: MEP links"</h1>
        <PageHelp text="Every Metric Exchange Protocol link of the topology: each pair of parents, and each child with its current parent. A link is ACTIVE when both sides hear each other, DOWN when neither does for the keep-alive timeout, INACTIVE when only one way works. Search a site to see its links, keep one kind or status, or sort by round-trip time. A site's own page cuts and restores its links."/>
        <GslbNav current="/gslb/links"/>
        <section class="card">
            <FilterForm class="form filters" id="link-filters">
                <label>"Search " <input type="search" name="q" size="14" maxlength="100" placeholder="site name" value=move || current("q")/></label>
                <ChoiceFilter label="Kind" name="kind" choices=LINK_KINDS.into_iter().map(|(key, kind)| choice(key, kind_label(kind))).collect()/>
                <ChoiceFilter label="Status" name="status" choices=LINK_STATUSES.into_iter().map(|(key, status)| choice(key, status_label(status))).collect()/>
                <KeptSort/>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Loaded of=links show=|page| view! { <LinksTable page/> }/>
        </section>
    }
}

/// "parent-parent" or "parent-child".
fn kind_label(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::ParentParent => "parent-parent",
        LinkKind::ParentChild => "parent-child",
    }
}

/// A site's name linking to its page.
fn site_link(name: &str, as_of: &AsOf) -> impl IntoView {
    view! { <a href=as_of.link(&format!("/gslb/sites/{name}"))>{name.to_owned()}</a> }
}

/// One row per link.
fn rows(links: Vec<LinkView>, as_of: &AsOf) -> impl IntoView {
    links
        .into_iter()
        .map(|l| {
            let ends = format!("{}-{}", l.a, l.b);
            view! {
                <tr data-link=ends>
                    <td>{site_link(&l.a, as_of)}</td>
                    <td>{site_link(&l.b, as_of)}</td>
                    <td>{kind_label(l.kind)}</td>
                    <td data-col="status"><span class=format!("badge {}", status_class(l.status))>{status_label(l.status)}</span></td>
                    <td class="small">{direction_text(&l.a_to_b)}</td>
                    <td class="small">{direction_text(&l.b_to_a)}</td>
                    <td class="small">{format!("{} ({})", l.initiator, l.initiator_rule)}</td>
                    <td class="num" data-col="rtt">{l.rtt_ms.map(|r| format!("{r:.1} ms")).unwrap_or_else(|| "—".into())}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The table of one page, its sortable headings and the pager.
#[component]
fn LinksTable(page: LinkPage) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let url = ListUrl::current("/gslb/links", &FILTERS);
    let header = |(key, _, label): (&'static str, LinkSort, &'static str)| {
        // The slowest first for the round-trip time; the others from the start (status: the
        // worst first).
        url.header(key, label, key == "rtt")
    };
    view! {
        <p class="muted" id="link-matching" data-matching=page.matching.to_string() data-total=page.total.to_string()>
            {matching_summary(page.matching, page.total, "MEP links")}
        </p>
        <table tabindex="0" id="links-table">
            <thead><tr>
                {LINK_SORTS.into_iter().take(4).map(header).collect_view()}
                <th>"Site → peer"</th>
                <th>"Peer → site"</th>
                <th>"Initiator"</th>
                {LINK_SORTS.into_iter().skip(4).map(header).collect_view()}
            </tr></thead>
            <tbody>{rows(page.rows, &as_of)}</tbody>
        </table>
        {(page.matching == 0).then(|| view! { <p class="muted" id="link-none">"No MEP link matches: clear the search or pick another kind or status."</p> })}
        <Pager page=page.page total=u64::from(page.matching) per_page=LINK_PAGE_SIZE href=url.page_href()/>
    }
}
