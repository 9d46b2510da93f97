// Inline (ghost-text) suggestions for CodeMirror 6: shown greyed at the cursor, Tab accepts,
// Escape rejects, and any other edit, cursor move or blur rejects with that reason.
import { StateEffect, StateField, Prec } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, keymap } from "@codemirror/view";

export const showSuggestion = StateEffect.define();
export const clearSuggestion = StateEffect.define();

class GhostText extends WidgetType {
  constructor(text) {
    super();
    this.text = text;
  }
  eq(other) {
    return other.text === this.text;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-ghost";
    span.textContent = this.text;
    return span;
  }
  ignoreEvent() {
    return true;
  }
}

// The suggestion on screen: {text, pos, requestId} or null.
export const suggestionField = StateField.define({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(showSuggestion)) return effect.value;
      if (effect.is(clearSuggestion)) return null;
    }
    return value;
  },
  provide: (field) =>
    EditorView.decorations.from(field, (value) =>
      value
        ? Decoration.set([
            Decoration.widget({ widget: new GhostText(value.text), side: 1 }).range(value.pos),
          ])
        : Decoration.none,
    ),
});

// onDecision(kind, suggestion, reason): kind is "accepted" or "rejected".
export function suggestionExtension(onDecision, onHotkey) {
  const decide = (view, kind, reason) => {
    const current = view.state.field(suggestionField);
    if (!current) return false;
    const effects = [clearSuggestion.of(null)];
    if (kind === "accepted") {
      view.dispatch({
        changes: { from: current.pos, insert: current.text },
        selection: { anchor: current.pos + current.text.length },
        effects,
        userEvent: "input.complete",
      });
    } else {
      view.dispatch({ effects });
    }
    onDecision(kind, current, reason);
    return true;
  };
  const keys = Prec.highest(
    keymap.of([
      { key: "Tab", run: (view) => decide(view, "accepted") },
      { key: "Escape", run: (view) => decide(view, "rejected", "escape") },
      {
        key: "Mod-Enter",
        run: (view) => {
          onHotkey(view);
          return true;
        },
      },
    ]),
  );
  const watcher = EditorView.updateListener.of((update) => {
    const before = update.startState.field(suggestionField);
    if (!before || !update.state.field(suggestionField)) return;
    if (update.transactions.some((tr) => tr.isUserEvent("input.complete"))) return;
    let reason = null;
    if (update.docChanged) reason = "typing";
    else if (update.selectionSet) reason = "cursor";
    else if (update.focusChanged && !update.view.hasFocus) reason = "blur";
    if (reason) {
      // a new transaction cannot be dispatched inside an update: defer it
      queueMicrotask(() => decide(update.view, "rejected", reason));
    }
  });
  return [suggestionField, keys, watcher];
}
