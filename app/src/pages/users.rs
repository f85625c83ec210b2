//! User management (admin): add a user, change a role, reset a password, disable or delete
//! a user.

use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::admin::{
    list_users, AddUser, DeleteUser, ResetUserPassword, SetUserDisabled, SetUserRole,
};
use crate::components::act::{Act, ActButton, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::model::UserView;
use crate::pages::LoadError;

/// The users page: its forms and list for admins, only why for anyone else (the server
/// refuses them anyway; the list is not even asked for).
#[component]
pub fn UsersPage() -> impl IntoView {
    view! {
        <Title text="Users"/>
        <h1>"Users"</h1>
        <PageHelp text="The console's accounts and their roles: a viewer reads every page, an operator also acts on the estate and drives the clock, an admin also edits evaluators, rules and accounts. Passwords are stored hashed and never shown."/>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                if user_allows(Role::Admin).await {
                    view! { <AdminBody/> }.erase()
                } else {
                    view! { <p class="error" id="not-admin">"Managing users is for admins: your role does not allow it."</p> }.erase()
                }
            })}
        </Transition>
    }
}

/// The users page's content, for admins.
#[component]
fn AdminBody() -> impl IntoView {
    let users = answer(|| (), |_| list_users());
    view! {
        <section class="card">
            <h2>"Add a user"</h2>
            <ActForm path=AddUser::PATH class="form inline" id="add-user-form" status_id="user-added" done="User {username} added as {role}." reset=true>
                <label>"User name " <input type="text" name="username" required/></label>
                <label>"Password " <input type="password" name="password" autocomplete="new-password" required/></label>
                <label>"Role " <select name="role">{role_options(Role::Viewer)}</select></label>
                <button type="submit" class="primary">"Add"</button>
            </ActForm>
        </section>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match users.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(list) => view! { <UserTable list/> }.erase(),
                }
            })}
        </Transition>
    }
}

/// The roles as options, `selected` chosen.
fn role_options(selected: Role) -> impl IntoView {
    Role::ALL
        .into_iter()
        .map(move |r| view! { <option value=r.as_str() selected=r == selected>{r.as_str()}</option> })
        .collect_view()
}

#[component]
fn UserTable(list: Vec<UserView>) -> impl IntoView {
    view! {
        <section class="card">
            <table tabindex="0" id="users-table">
                <thead><tr><th>"User"</th><th>"Role"</th><th>"Created (UTC)"</th><th>"Password"</th><th>"Account"</th></tr></thead>
                <tbody>
                    {list.into_iter().map(|u| {
                        let role_label = format!("Role of {}", u.username);
                        let id = u.id.to_string();
                        let name = u.username.clone();
                        let toggle = if u.disabled { "Enable" } else { "Disable" };
                        let disable = Act::of(&SetUserDisabled { id: id.clone(), disabled: (!u.disabled).to_string() });
                        let delete = Act::of(&DeleteUser { id: id.clone() });
                        let (id_role, id_reset) = (id.clone(), id);
                        let reset_label = format!("New password of {name}");
                        view! {
                        <tr data-user=u.username.clone()>
                            <td>{u.username.clone()}</td>
                            <td>
                                <ActForm path=SetUserRole::PATH class="inline">
                                    <input type="hidden" name="id" value=id_role/>
                                    <select name="role" aria-label=role_label>{role_options(u.role)}</select>
                                    <button type="submit">"Change"</button>
                                </ActForm>
                            </td>
                            <td class="mono">{u.created_at.clone()}</td>
                            <td>
                                <ActForm path=ResetUserPassword::PATH class="inline" done="Password replaced." reset=true>
                                    <input type="hidden" name="id" value=id_reset/>
                                    <input type="password" name="password" placeholder="new password" aria-label=reset_label autocomplete="new-password"/>
                                    <button type="submit">"Reset"</button>
                                </ActForm>
                            </td>
                            <td>
                                {u.disabled.then(|| view! { <span class="badge">"disabled"</span>" " })}
                                <ActButton label=toggle aria_label=format!("{toggle} {name}") act=disable/>
                                <ConfirmButton
                                    label="Delete…"
                                    aria_label=format!("Delete {name}")
                                    confirm=format!("Delete {name}")
                                    consequence=format!("Delete the account {name}: it can no longer sign in and its sessions end; what it did stays in the audit log.")
                                    act=delete
                                />
                            </td>
                        </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
