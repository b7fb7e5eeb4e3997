// The console page: one Alpine.js component over the console's JSON API. Every URL is relative to
// the page's own (/TOKEN/), so the token travels with each request. Item values arrive as JSON text
// the server wrote and are shown and edited as text: numbers keep every digit.
"use strict";

async function api(path, options) {
  const response = await fetch("api/" + path, options);
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    const e = new Error(body.error || response.statusText);
    e.status = response.status;
    throw e;
  }
  return body;
}

function post(path, body) {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

function emptyQuery() {
  return {
    index: "", partition: "", sortOp: "", sort: "", sortHigh: "", desc: "false", limit: 10,
    filterAttr: "", filterOp: "eq", filterValue: "", projection: "", maxItemsPerSecond: "",
  };
}

document.addEventListener("alpine:init", () => {
  Alpine.data("stowageConsole", () => ({
    view: "browse",
    stores: [],
    store: null,
    table: null,
    q: emptyQuery(),
    m: { target: "", pageSize: "", segments: "" },
    page: null,
    item: null,
    tab: "app",
    editor: null,
    jobs: [],
    metrics: [],
    usage: [],
    error: "",

    async load() {
      await this.guard(async () => { this.stores = (await api("tables")).stores; });
    },

    async guard(action) {
      this.error = "";
      try {
        await action();
      } catch (e) {
        this.error = e.message;
      }
    },

    selectTable(store, table) {
      this.store = store;
      this.table = table;
      this.q = emptyQuery();
      this.m = { target: "", pageSize: "", segments: "" };
      this.page = null;
      this.item = null;
      this.editor = null;
    },

    params() {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(this.q)) {
        if (v !== "" && v !== null) p.set(k, v);
      }
      return p;
    },

    async runQuery() {
      await this.guard(async () => {
        this.item = null;
        this.page = await api("tables/" + this.table.id + "/query?" + this.params());
      });
    },

    async turn(cursor) {
      await this.guard(async () => {
        const p = new URLSearchParams({ cursor: cursor, projection: this.q.projection });
        this.item = null;
        this.page = await api("tables/" + this.table.id + "/page?" + p);
      });
    },

    async openItem(row) {
      await this.guard(async () => {
        this.editor = null;
        this.tab = "app";
        this.item = await api("tables/" + this.table.id + "/item?" + new URLSearchParams({ key: row.key }));
        this.$nextTick(() => document.getElementById("item").scrollIntoView({ block: "nearest" }));
      });
    },

    async fetchAttribute(a) {
      await this.guard(async () => {
        const p = new URLSearchParams({ key: this.item.key, name: a.name });
        const v = await api("tables/" + this.table.id + "/attribute?" + p);
        a.text = v.text;
        a.type = v.type;
        a.fetched = v.size;
      });
    },

    async editItem() {
      await this.guard(async () => {
        const e = await api("tables/" + this.table.id + "/edit?" + new URLSearchParams({ key: this.item.key }));
        this.editor = { key: this.item.key, fingerprint: e.fingerprint, text: e.text, message: "" };
        this.$nextTick(() => document.getElementById("editor").scrollIntoView({ block: "nearest" }));
      });
    },

    newItem() {
      const key = {};
      key[this.table.partitionKey.split(" ")[0]] = "";
      if (this.table.sortKey) key[this.table.sortKey.split(" ")[0]] = "";
      this.item = null;
      this.editor = { key: null, fingerprint: null, text: JSON.stringify(key, null, 2), message: "" };
    },

    async saveItem() {
      const ed = this.editor;
      ed.message = "";
      try {
        await post("tables/" + this.table.id + "/put", { item: ed.text, key: ed.key, fingerprint: ed.fingerprint });
        this.editor = null;
        this.item = null;
        if (this.page) await this.runQuery();
      } catch (e) {
        ed.message = (e.status === 409 ? "Not saved: " : "") + e.message;
      }
    },

    async deleteItem() {
      if (!confirm("Delete this item?")) return;
      await this.guard(async () => {
        await post("tables/" + this.table.id + "/delete", { key: this.item.key, fingerprint: this.item.fingerprint });
        this.item = null;
        await this.runQuery();
      });
    },

    async startDeleteJob() {
      if (!confirm("Delete every item this query matches (all pages)?")) return;
      await this.guard(async () => {
        const body = Object.fromEntries(this.params());
        const job = await post("tables/" + this.table.id + "/delete-job", body);
        this.jobs.unshift(job);
        this.view = "jobs";
        this.poll(job.id);
      });
    },

    async startMigrationJob() {
      const target = this.stores.find((s) => s.id === this.m.target);
      if (!target || !confirm("Copy " + this.table.name + " into " + target.label + "?")) return;
      await this.guard(async () => {
        const job = await post("tables/" + this.table.id + "/migrate-job", this.m);
        this.jobs.unshift(job);
        this.view = "jobs";
        this.poll(job.id);
      });
    },

    // A job's bar: a delete job's share of matched items; a migration's share of finished segments
    // (its total is not known before the scan ends).
    jobBar(j) {
      if (j.state === "done") return 100;
      if (j.kind === "migrate") {
        const n = j.segments.length;
        return n ? Math.max(5, Math.min(95, (100 * j.segments.filter((s) => s.done).length) / n)) : 5;
      }
      return Math.min(95, j.matched ? (100 * j.deleted) / j.matched : 5);
    },

    poll(id) {
      const tick = async () => {
        try {
          const j = await api("jobs/" + id);
          const i = this.jobs.findIndex((x) => x.id === id);
          if (i >= 0) this.jobs[i] = j;
          if (j.state === "running") setTimeout(tick, 250);
        } catch (e) {
          this.error = e.message;
        }
      };
      tick();
    },

    async cancelJob(j) {
      await this.guard(async () => { await post("jobs/" + j.id + "/cancel", {}); });
    },

    async resumeJob(j) {
      await this.guard(async () => {
        await post("jobs/" + j.id + "/resume", {});
        this.poll(j.id);
      });
    },

    async loadMetrics() {
      await this.guard(async () => { this.metrics = (await api("metrics")).stores; });
    },

    async loadUsage() {
      await this.guard(async () => { this.usage = (await api("usage")).stores; });
    },

    // A bar's width in percent of the largest value of its list.
    share(list, value) {
      const max = Math.max(1, ...list.map((x) => x));
      return Math.round((100 * value) / max);
    },

    money(x) {
      return x >= 0.01 ? "$" + x.toFixed(2) : "$" + x.toPrecision(2);
    },

    barWidth(m, counter) {
      const max = Math.max(1, m.reads, m.writes, m.queries, m.throttled, m.casRetries, m.staleIndexHits);
      return Math.round((100 * m[counter]) / max);
    },

    summary(a) {
      if (a.text !== null) return a.text.length > 60 ? a.text.slice(0, 60) + "…" : a.text;
      if (a.kind === "overflowed") return "(overflowed, " + a.size + " bytes)";
      if (a.kind === "encrypted") return "(encrypted)";
      return "(" + a.kind + ")";
    },

    sizes(a) {
      if (a.fetched !== undefined) return a.fetched + " bytes, from a " + a.size + "-byte blob";
      if (a.storedSize !== undefined && a.size !== undefined) return a.size + " bytes, stored in " + a.storedSize;
      if (a.storedSize !== undefined) return "stored in " + a.storedSize + " bytes";
      return a.size !== undefined ? a.size + " bytes" : "";
    },
  }));
});
