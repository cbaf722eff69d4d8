// What every game's table view shares (see the view interface in shell/games.js): the slots and context it
// was mounted with, the model it was last given, and sending one action at a time.  A game's view extends
// TableView and draws the rest; a new game need not write these again.

export class TableView {
  /** @param {object} slots the elements the view fills  @param {object} ctx the shell's context */
  constructor(slots, ctx) {
    this.s = slots;
    this.ctx = ctx;
    this.live = ctx.live;
    this.model = null;
    this.pending = null; // the action sent and not yet answered: {deal, version, id}
    this.lastStateRef = null;
  }

  destroy() {}

  /** The game's own observation in the latest state, or null. */
  obs() {
    return this.model?.state?.observation || null;
  }

  /** The legal actions the server listed for this seat (none in a replay). */
  legal() {
    return this.model?.state?.legal || [];
  }

  /** Whether this seat decides now: a live table, a seat not taken over by another window (the frame's
   * `model.takenOver`), legal moves, the deal not over, and `mine(state)` (default: the server's `your_turn`). */
  myTurn(model = this.model, mine = (st) => st.your_turn) {
    const st = model?.state;
    if (!this.live || !st || st.you === null || st.you === undefined || !st.legal || !st.legal.length) return false;
    if (model.takenOver) return false; // another window plays this seat now: this one only watches
    return !!(mine(st) && st.observation.phase !== "over");
  }

  /** Send one action at the current deal and version; nothing more is sent until the server answers. */
  send(action) {
    const st = this.model.state;
    if (!st || this.pending) return;
    const id = this.ctx.send(action);
    if (id === null) return;
    this.pending = { deal: st.deal, version: st.version, id };
    this.pendingChanged();
  }

  /** The server answered (or refused) the action sent. */
  clearPending() {
    this.pending = null;
    this.pendingChanged();
  }

  /** Called when an action is sent or answered: redraw the move buttons. */
  pendingChanged() {
    this.renderActions();
  }
}
