//! The inbox of inputs a follower accepted, on both stores: posted, claimed by the leader,
//! answered (in the journal's transaction or as a refusal), withdrawn only while unclaimed.

use engine::{CoreAction, SimTime};
use services::history;
use services::journal::{self, AuditRow, Entry, Journaled};
use services::replica::inbox::{self, Answer, Answered};

mod common;
use common::stores;

fn note(text: &str) -> Entry {
    Entry::Action(
        CoreAction::Note {
            text: text.to_owned(),
        }
        .into(),
    )
}

#[tokio::test]
async fn an_input_is_answered_once_with_its_journal_entry_or_withdrawn_while_unclaimed() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 1, None)
            .await
            .expect("run");
        let audit = AuditRow {
            actor: "olga".into(),
            action: "clock.add_note".into(),
            arguments: serde_json::json!({"text": "first"}),
        };
        let first = inbox::post(&store, run.id, &note("first"), Some("olga"), Some(&audit))
            .await
            .expect("post");
        let second = inbox::post(&store, run.id, &note("second"), Some("olga"), None)
            .await
            .expect("post");
        let waiting = inbox::waiting(&store, run.id).await.expect("waiting");
        assert_eq!(
            waiting.iter().map(|w| w.id).collect::<Vec<_>>(),
            [first, second],
            "{d:?}: oldest first"
        );
        assert_eq!(waiting[0].entry, note("first"));
        assert_eq!(
            waiting[0].audit.as_ref(),
            Some(&audit),
            "{d:?}: the audit row travels"
        );

        // The leader claims the first and journals it with its answer, in one transaction.
        assert!(inbox::claim(&store, first).await.expect("claim"));
        assert!(
            !inbox::withdraw(&store, first).await.expect("withdraw"),
            "{d:?}: a claimed input cannot be withdrawn"
        );
        let answer = Answer::Applied {
            events: Vec::new(),
            resolution: None,
            journal_seq: 0,
        };
        let answered = Answered {
            id: first,
            answer: answer.encode().expect("encode"),
        };
        let mut conn = store.journal_connection().await.expect("conn");
        let entry = Journaled {
            seq: 0,
            t_ms: SimTime(5).as_millis(),
            entry: note("first"),
            actor: Some("olga".into()),
        };
        journal::append(&mut conn, run.id, &[entry], Some(&audit), Some(&answered))
            .await
            .expect("append");
        assert_eq!(
            inbox::answer_of(&store, first).await.expect("answer"),
            Some(answer),
            "{d:?}"
        );

        // The second, never claimed, is withdrawn: the leader will not see it.
        assert!(inbox::withdraw(&store, second).await.expect("withdraw"));
        assert!(inbox::waiting(&store, run.id)
            .await
            .expect("waiting")
            .is_empty());
        assert_eq!(inbox::answer_of(&store, second).await.expect("gone"), None);

        // A refusal is answered without a journal entry.
        let third = inbox::post(&store, run.id, &Entry::Step, Some("olga"), None)
            .await
            .expect("post");
        let refused = Answer::Refused {
            field: "action".into(),
            message: "nothing would change".into(),
        };
        inbox::answer(&store, third, &refused)
            .await
            .expect("answer");
        assert_eq!(
            inbox::answer_of(&store, third).await.expect("answer"),
            Some(refused),
            "{d:?}"
        );
        assert_eq!(
            journal::read(&store, run.id, 0)
                .await
                .expect("journal")
                .len(),
            1,
            "{d:?}"
        );
    }
}
