// The replay of a finished game: one step per reveal of a round's plans and per move on the map.
import { $, t, toast } from "/static/tavola/common.js";
import { showGone, ui } from "./state.js";
import { render } from "./view.js";

async function fetchStep(step) {
  const r = await fetch(`/api/games/${ui.gameId}/replay/${step}`);
  const msg = await r.json();
  if (r.status === 404) { showGone(); return null; }
  if (!r.ok) { toast(msg.message); return null; }
  return msg;
}
// the steps worth stopping at, from the whole game's log: the start, each round's reveal (its
// plans are made in secret, so they appear together) and each placement, Wedding or donation
function replayStops(log, total) {
  const stops = [{ step: 0, text: t("The deal: every player has drawn a fief") }];
  let step = 0;
  for (const e of log) {
    if (e.kind === "reveal") { step += e.plans.length; stops.push({ step, text: t("Round {round}: {text}", { round: e.round, text: e.text }) }); }
    else if (e.kind === "turn") { step += 1; stops.push({ step, text: t("Round {round}: {text}", { round: e.round, text: e.text }) }); }
  }
  if (step !== total) return Array.from({ length: total + 1 }, (_, i) => ({ step: i, text: t("move {n}", { n: i }) }));
  return stops;
}
// each click moves on from the stop last asked for, and an answer to an earlier request is
// dropped: quick clicks on "step forward" go as many stops, whatever order the answers come in
async function showStop(index) {
  const stops = ui.stops;
  index = Math.max(0, Math.min(stops.length - 1, index));
  const asked = ui.askedStop = (ui.askedStop || 0) + 1;
  ui.wantStop = index;
  const msg = await fetchStep(stops[index].step);
  if (!msg || asked !== ui.askedStop) return;
  ui.replay = msg.replay;
  ui.stop = index;
  render(msg);
  $("rp-slider").max = stops.length - 1;
  $("rp-slider").value = index;
  $("rp-step").textContent = t("Step {step} of {total}: {text}", { step: index, total: stops.length - 1, text: stops[index].text });
}
export async function setupReplay() {
  $("replay-bar").hidden = false;
  const last = await fetchStep(1e9);  // the end, clamped by the server: the whole log
  if (!last) return;
  ui.stops = replayStops(last.log, last.replay.total);
  const go = (f) => () => showStop(f(ui.wantStop ?? ui.stop));
  $("rp-start").onclick = go(() => 0);
  $("rp-back").onclick = go((i) => i - 1);
  $("rp-next").onclick = go((i) => i + 1);
  $("rp-end").onclick = go(() => ui.stops.length - 1);
  $("rp-slider").oninput = (ev) => showStop(Number(ev.target.value));
  const playing = (on) => {
    $("rp-play").querySelector(".i-play").style.display = on ? "none" : "";
    $("rp-play").querySelector(".i-pause").style.display = on ? "" : "none";
    $("rp-play").setAttribute("aria-label", on ? t("Pause") : t("Play"));
    $("rp-play").title = on ? t("Pause") : t("Play");
  };
  $("rp-play").onclick = () => {
    if (ui.playing) { clearInterval(ui.playing); ui.playing = null; playing(false); return; }
    playing(true);
    ui.playing = setInterval(() => {
      if (ui.stop >= ui.stops.length - 1) { clearInterval(ui.playing); ui.playing = null; playing(false); } else showStop(ui.stop + 1);
    }, 900);
  };
  showStop(0);
}
