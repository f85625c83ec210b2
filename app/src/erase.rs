//! Type-erased views: [`Erase::erase`], the console's `into_any()`.
//!
//! An erased view ([`AnyView`]) keeps a pointer to each way of rendering the type it erases,
//! the framework's asynchronous hydration among them, so every `into_any()` in an island
//! compiles that path for the whole subtree below it into the browser bundle, although an
//! island hydrates synchronously and never takes it. [`Erase::erase`] wraps the view in
//! `InPlace` (browser build only) before erasing it: its asynchronous hydration is the
//! synchronous one, ready at once, so only the synchronous path is compiled below it. What the
//! page does, on the server and in the browser, is the same as with `into_any()`; on the
//! server, where pages outside the islands are rendered, nothing is wrapped.

use leptos::children::ToChildren;
use leptos::prelude::*;

/// Erases a view's type, like `into_any()`, hydrating it in place (see the module's doc).
pub trait Erase {
    /// The view as an [`AnyView`] whose asynchronous hydration is the synchronous one.
    fn erase(self) -> AnyView;
}

impl<V: RenderHtml> Erase for V {
    #[cfg(feature = "hydrate")]
    #[expect(clippy::disallowed_methods, reason = "the one place views are erased")]
    fn erase(self) -> AnyView {
        InPlace(self).into_any()
    }

    /// On the server there is no hydration, so nothing to wrap.
    #[cfg(not(feature = "hydrate"))]
    #[expect(clippy::disallowed_methods, reason = "the one place views are erased")]
    fn erase(self) -> AnyView {
        self.into_any()
    }
}

/// What a component is given as children, erased with [`Erase::erase`]: the framework's
/// [`Children`] erases them with `into_any()`. `<Layout>`, `<FilterForm>` and `<ChartFrame>`
/// take these.
pub struct ErasedChildren(Box<dyn FnOnce() -> AnyView + Send>);

impl ErasedChildren {
    /// The children's view.
    pub fn view(self) -> AnyView {
        (self.0)()
    }
}

impl<F, C> ToChildren<F> for ErasedChildren
where
    F: FnOnce() -> C + Send + 'static,
    C: RenderHtml + 'static,
{
    fn to_children(children: F) -> Self {
        Self(Box::new(move || children().erase()))
    }
}

#[cfg(feature = "hydrate")]
pub use in_place_view::InPlace;

#[cfg(feature = "hydrate")]
mod in_place_view {
    use leptos::prelude::*;
    use leptos::tachys::html::attribute::any_attribute::AnyAttribute;
    use leptos::tachys::html::attribute::Attribute;
    use leptos::tachys::hydration::Cursor;
    use leptos::tachys::ssr::StreamBuilder;
    use leptos::tachys::view::add_attr::AddAnyAttr;
    use leptos::tachys::view::{Position, PositionState};
    use std::future::Future;

    /// A view that renders, builds and hydrates exactly as the view it wraps, except that its
    /// asynchronous hydration is the trait's default: the synchronous one in a ready future.
    pub struct InPlace<V>(pub V);

    impl<V: Render> Render for InPlace<V> {
        type State = V::State;

        fn build(self) -> Self::State {
            self.0.build()
        }

        fn rebuild(self, state: &mut Self::State) {
            self.0.rebuild(state);
        }
    }

    impl<V: RenderHtml> AddAnyAttr for InPlace<V> {
        type Output<SomeNewAttr: Attribute> = InPlace<V::Output<SomeNewAttr>>;

        fn add_any_attr<NewAttr: Attribute>(self, attr: NewAttr) -> Self::Output<NewAttr>
        where
            Self::Output<NewAttr>: RenderHtml,
        {
            InPlace(self.0.add_any_attr(attr))
        }
    }

    impl<V: RenderHtml> RenderHtml for InPlace<V> {
        type AsyncOutput = V::AsyncOutput;
        // Kept wrapped: `into_any()` erases the owned type.
        type Owned = InPlace<V::Owned>;

        const MIN_LENGTH: usize = V::MIN_LENGTH;
        const EXISTS: bool = V::EXISTS;

        fn dry_resolve(&mut self) {
            self.0.dry_resolve();
        }

        fn resolve(self) -> impl Future<Output = Self::AsyncOutput> + Send {
            self.0.resolve()
        }

        fn html_len(&self) -> usize {
            self.0.html_len()
        }

        fn to_html_with_buf(
            self,
            buf: &mut String,
            position: &mut Position,
            escape: bool,
            mark_branches: bool,
            extra_attrs: Vec<AnyAttribute>,
        ) {
            self.0
                .to_html_with_buf(buf, position, escape, mark_branches, extra_attrs);
        }

        fn to_html_async_with_buf<const OUT_OF_ORDER: bool>(
            self,
            buf: &mut StreamBuilder,
            position: &mut Position,
            escape: bool,
            mark_branches: bool,
            extra_attrs: Vec<AnyAttribute>,
        ) where
            Self: Sized,
        {
            self.0.to_html_async_with_buf::<OUT_OF_ORDER>(
                buf,
                position,
                escape,
                mark_branches,
                extra_attrs,
            );
        }

        fn hydrate<const FROM_SERVER: bool>(
            self,
            cursor: &Cursor,
            position: &PositionState,
        ) -> Self::State {
            self.0.hydrate::<FROM_SERVER>(cursor, position)
        }

        // `hydrate_async` is the trait's default: `hydrate` above, in a ready future.

        fn into_owned(self) -> Self::Owned {
            InPlace(self.0.into_owned())
        }
    }
}
