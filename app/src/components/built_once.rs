//! A boundary's view built once per server render.
//!
//! On the server a `Suspense` or `Transition` walks its children before it renders them: once to
//! find the resources they read, and again when those have loaded, to find any read after them.
//! Each walk runs the boundary's `Suspend` anew, and a `Suspend` whose data are there by then
//! builds its whole view (every component in it) only for the walk to drop it. Awaiting
//! [`build_view_next`] after the data and before the view stops the walks at that point, so the
//! view is built once, when the boundary renders.
//!
//! Only for a view that creates no resource of its own: the walks would no longer see it, and the
//! boundary would not wait for it. In the browser it returns at once, so hydration finds the view
//! ready, as it expects.

/// Awaited in a `Suspend` between its data and its view (see the module's documentation).
pub async fn build_view_next() {
    #[cfg(feature = "ssr")]
    {
        use std::task::Poll;
        // Pending once (after asking to be polled again), ready from then on: a walk polls a
        // `Suspend` once and drops it, the render polls it to the end.
        let mut asked = false;
        std::future::poll_fn(move |cx| {
            if asked {
                Poll::Ready(())
            } else {
                asked = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await;
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::build_view_next;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    #[test]
    fn a_single_poll_stops_before_the_view_and_the_next_goes_through() {
        let built = std::cell::Cell::new(0);
        let suspend = || async {
            build_view_next().await;
            built.set(built.get() + 1);
        };
        let mut cx = Context::from_waker(Waker::noop());
        // A walk: one poll, then the future is dropped. Nothing is built.
        assert!(pin!(suspend()).poll(&mut cx).is_pending());
        assert_eq!(built.get(), 0);
        // The render: polled again, as it asked, and built once.
        let mut render = pin!(suspend());
        assert!(render.as_mut().poll(&mut cx).is_pending());
        assert_eq!(render.as_mut().poll(&mut cx), Poll::Ready(()));
        assert_eq!(built.get(), 1);
    }
}
