// A table's views after the first come as their changes from the one before, as the server
// makes them (tavola.web.changes). `applied(view, change)` is the view after the change: a
// list keeps its first `keep` items, edits some and adds more; an object drops, sets and edits
// keys. A change that does not fit the view throws. No page in here: Node tests it as it is.
export function applied(old, c) {
  const fits = (ok) => { if (!ok) throw new Error("a change that does not fit the view"); };
  if (Array.isArray(old)) {
    fits(Number.isInteger(c.keep) && c.keep <= old.length);
    const items = old.slice(0, c.keep);
    for (const [i, inside] of Object.entries(c.edit || {})) items[Number(i)] = applied(items[Number(i)], inside);
    return items.concat(c.add || []);
  }
  fits(old !== null && typeof old === "object" && c.keep === undefined);
  const drop = new Set(c.drop || []);
  const out = {};
  for (const [k, v] of Object.entries(old)) if (!drop.has(k)) out[k] = v;
  Object.assign(out, c.set || {});
  for (const [k, inside] of Object.entries(c.edit || {})) { fits(k in old); out[k] = applied(old[k], inside); }
  return out;
}
