//! User management (admin): add a user, change a role, reset a password, disable or delete
//! a user.

use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::admin::{
    list_users, AddUser, DeleteUser, ResetUserPassword, SetUserDisabled, SetUserRole,
};
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::model::UserView;
use crate::pages::{action_error, LoadError};

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
    let add = ServerAction::<AddUser>::new();
    let actions = UserActions {
        set_role: ServerAction::<SetUserRole>::new(),
        reset: ServerAction::<ResetUserPassword>::new(),
        disable: ServerAction::<SetUserDisabled>::new(),
        delete: ServerAction::<DeleteUser>::new(),
    };
    let UserActions {
        set_role,
        reset,
        disable,
        delete,
    } = actions;
    let users = answer(
        move || {
            (
                add.version().get(),
                set_role.version().get(),
                disable.version().get(),
                delete.version().get(),
            )
        },
        |_| list_users(),
    );
    let role_options = |selected: Role| {
        Role::ALL
            .into_iter()
            .map(move |r| view! { <option value=r.as_str() selected=r == selected>{r.as_str()}</option> })
            .collect_view()
    };
    // A user added: the form is emptied for the next one and says who was added.
    let add_form = NodeRef::<leptos::html::Form>::new();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if matches!(add.value().get(), Some(Ok(_))) {
            if let Some(form) = add_form.get() {
                form.reset();
            }
        }
    });
    view! {
        <section class="card">
            <h2>"Add a user"</h2>
            <ActionForm action=add node_ref=add_form attr:class="form inline" attr:id="add-user-form">
                <label>"User name " <input type="text" name="username" required/></label>
                <label>"Password " <input type="password" name="password" autocomplete="new-password" required/></label>
                <label>"Role " <select name="role">{role_options(Role::Viewer)}</select></label>
                <button type="submit" class="primary">"Add"</button>
            </ActionForm>
            {move || action_error(add.value().get()).map(|e| view! { <p class="error">{e}</p> })}
            {move || add.value().get().and_then(|r| r.ok()).map(|u| view! {
                <p class="ok" id="user-added">{format!("User {} added as {}.", u.username, u.role)}</p>
            })}
        </section>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match users.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(list) => view! { <UserTable list actions role_options/> }.erase(),
                }
            })}
        </Transition>
        {move || action_error(set_role.value().get()).map(|e| view! { <p class="error">{e}</p> })}
        {move || action_error(reset.value().get()).map(|e| view! { <p class="error">{e}</p> })}
        {move || action_error(disable.value().get()).map(|e| view! { <p class="error">{e}</p> })}
        {move || action_error(delete.value().get()).map(|e| view! { <p class="error">{e}</p> })}
        {move || reset.value().get().and_then(|r| r.ok()).map(|_| view! { <p class="ok">"Password replaced."</p> })}
    }
}

/// The actions of the users table's rows.
#[derive(Clone, Copy)]
struct UserActions {
    set_role: ServerAction<SetUserRole>,
    reset: ServerAction<ResetUserPassword>,
    disable: ServerAction<SetUserDisabled>,
    delete: ServerAction<DeleteUser>,
}

#[component]
fn UserTable<F, V>(list: Vec<UserView>, actions: UserActions, role_options: F) -> impl IntoView
where
    F: Fn(Role) -> V + Copy + Send + 'static,
    V: IntoView + 'static,
{
    let UserActions {
        set_role,
        reset,
        disable,
        delete,
    } = actions;
    view! {
        <section class="card">
            <table tabindex="0" id="users-table">
                <thead><tr><th>"User"</th><th>"Role"</th><th>"Created (UTC)"</th><th>"Password"</th><th>"Account"</th></tr></thead>
                <tbody>
                    {list.into_iter().map(|u| {
                        let delete_label = format!("Delete {}", u.username);
                        let role_label = format!("Role of {}", u.username);
                        view! {
                        <tr data-user=u.username.clone()>
                            <td>{u.username.clone()}</td>
                            <td>
                                <ActionForm action=set_role attr:class="inline">
                                    <input type="hidden" name="id" value=u.id.to_string()/>
                                    <select name="role" aria-label=role_label>{role_options(u.role)}</select>
                                    <button type="submit">"Change"</button>
                                </ActionForm>
                            </td>
                            <td class="mono">{u.created_at.clone()}</td>
                            <td>
                                <ActionForm action=reset attr:class="inline">
                                    <input type="hidden" name="id" value=u.id.to_string()/>
                                    <input type="password" name="password" placeholder="new password" autocomplete="new-password"/>
                                    <button type="submit">"Reset"</button>
                                </ActionForm>
                            </td>
                            <td>
                                {u.disabled.then(|| view! { <span class="badge">"disabled"</span>" " })}
                                <ActionForm action=disable attr:class="inline">
                                    <input type="hidden" name="id" value=u.id.to_string()/>
                                    <input type="hidden" name="disabled" value=(!u.disabled).to_string()/>
                                    <button type="submit">{if u.disabled { "Enable" } else { "Disable" }}</button>
                                </ActionForm>
                                <details class="inline confirm">
                                    <summary>"Delete…"</summary>
                                    <ActionForm action=delete attr:class="inline">
                                        <input type="hidden" name="id" value=u.id.to_string()/>
                                        <button type="submit" class="danger">{delete_label}</button>
                                    </ActionForm>
                                </details>
                            </td>
                        </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
