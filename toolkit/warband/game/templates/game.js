// The game page: steps through the game's states. Hand-written, no library; text from the
// game's files is only ever written with textContent (never as HTML), the pieces' SVG comes
// escaped from warband (game/svg.py). Test hooks: #end shows the last step, #step=N step N,
// #autoplay steps forward through every step (as the forward button does) and stops at the end,
// #controls uses each key, the slider and each button once, noting the step each led to.
"use strict";
window.onerror = function (message, source, line, column) {
  var box = document.getElementById("errors");
  box.hidden = false;
  box.textContent += "script error: " + message + " (line " + line + ":" + column + ")\n";
};
(function () {
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var steps = data.steps, at = 0, shownLayer = -1;
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider");
  slider.max = String(Math.max(steps.length - 1, 0));

  function drawFighters(state) {
    var r = data.base;
    var actor = steps[at].actor;
    state.fighters.forEach(function (d, i) {
      var g = $("f" + i);
      if (!g) { return; }
      g.setAttribute("class", d["class"] + (i === actor ? " acting" : ""));
      var circle = g.querySelector(":scope > circle"), texts = g.querySelectorAll("text");
      drawModels(g, d, r, circle);
      circle.setAttribute("cx", d.x);
      circle.setAttribute("cy", d.y);
      texts[0].setAttribute("x", d.x);
      texts[0].setAttribute("y", d.y + r + 9);
      texts[1].setAttribute("x", d.x);
      texts[1].setAttribute("y", d.y - r - 3);
      texts[1].textContent = d.badges;
      texts[1].setAttribute("visibility", d.badges ? "visible" : "hidden");
      g.querySelector("title").textContent = d.tip;
    });
  }

  // units of models with places: an outline round the unit and a base for each other model,
  // made anew at every step (their number changes as models fall)
  function drawModels(g, d, r, circle) {
    var unit = g.querySelector("g.unit");
    if (!d.models) {
      if (unit) { unit.parentNode.removeChild(unit); }
      return;
    }
    var ns = "http://www.w3.org/2000/svg", colour = circle.getAttribute("fill");
    if (!unit) {
      unit = document.createElementNS(ns, "g");
      unit.setAttribute("class", "unit");
      g.insertBefore(unit, circle);
    }
    unit.textContent = "";
    var outline = document.createElementNS(ns, "polygon");
    outline.setAttribute("class", "outline");
    outline.setAttribute("points", d.outline);
    outline.setAttribute("fill", colour);
    outline.setAttribute("fill-opacity", "0.12");
    outline.setAttribute("stroke", colour);
    outline.setAttribute("stroke-opacity", "0.5");
    outline.setAttribute("stroke-width", String(2 * r + 6));
    outline.setAttribute("stroke-linejoin", "round");
    unit.appendChild(outline);
    d.models.forEach(function (m) {
      var c = document.createElementNS(ns, "circle");
      c.setAttribute("class", "model");
      c.setAttribute("cx", m[0]);
      c.setAttribute("cy", m[1]);
      c.setAttribute("r", r);
      c.setAttribute("fill", colour);
      c.setAttribute("stroke", "#111");
      c.setAttribute("stroke-width", "0.8");
      unit.appendChild(c);
    });
  }

  function drawSides(state) {
    var box = $("sides");
    box.textContent = "";
    data.sides.forEach(function (side, s) {
      var total = 0, left = 0, removed = 0, withdrawn = 0, waiting = 0;
      data.fighters.forEach(function (f, i) {
        if (f.side !== s) { return; }
        total += 1;
        var out = state.out[i];
        if (out === "removed") { removed += 1; } else if (out === "withdrawn") { withdrawn += 1; } else { left += 1; }
        if (!out && / offboard/.test(state.fighters[i]["class"])) { waiting += 1; }
      });
      var div = document.createElement("div");
      div.className = "side";
      div.style.borderLeftColor = side.colour;
      var name = document.createElement("div");
      name.className = "name";
      var own = state.sides[s] || {values: [], conceded: false};
      name.textContent = side.name + (own.conceded ? " (conceded)" : "");
      div.appendChild(name);
      var count = document.createElement("div");
      count.textContent = left + " of " + total + " in play, " + removed + " removed" +
        (withdrawn ? ", " + withdrawn + " withdrawn" : "") +
        (waiting ? " (" + waiting + " not on the board yet)" : "");
      div.appendChild(count);
      if (own.values.length) {
        var values = document.createElement("div");
        values.className = "values";
        values.textContent = own.values.map(function (kv) { return kv[0] + " " + kv[1]; }).join(", ");
        div.appendChild(values);
      }
      box.appendChild(div);
    });
  }

  function show(n) {
    if (!steps.length) { return; }
    at = Math.max(0, Math.min(steps.length - 1, n));
    var step = steps[at], state = data.states[step.state];
    if (state.pieces !== shownLayer) {
      // (SVG text made and escaped by warband; the same few layers over the whole game)
      document.querySelector(".board .pieces").innerHTML = data.layers[state.pieces];
      shownLayer = state.pieces;
    }
    drawFighters(state);
    drawSides(state);
    $("step-title").textContent = step.title;
    var list = $("step-lines");
    list.textContent = "";
    step.lines.forEach(function (line) {
      var li = document.createElement("li");
      if (/ rolled /.test(line)) { li.className = "roll"; }
      li.textContent = line;
      list.appendChild(li);
    });
    slider.value = String(at);
    $("counter").textContent = "step " + (at + 1) + " of " + steps.length;
    document.body.setAttribute("data-step", String(at));
  }

  $("first").onclick = function () { show(0); };
  $("back").onclick = function () { show(at - 1); };
  $("forward").onclick = function () { show(at + 1); };
  $("last").onclick = function () { show(steps.length - 1); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener("keydown", function (e) {
    var keys = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1};
    if (e.key in keys && e.target !== slider) { e.preventDefault(); show(keys[e.key]); }
  });

  var result = data.result, scores = Object.keys(result.scores).map(function (k) {
    return k + " " + result.scores[k];
  }).join(", ");
  $("result").textContent = "after " + result.rounds + " rounds (" + result.ended + "): winner " +
    (result.winner === null ? "none (a draw)" : result.winner) + "; scores " + scores;

  show(0);
  var hash = window.location.hash, wanted = /^#step=(\d+)$/.exec(hash);
  if (hash === "#end") { $("last").click(); }
  if (wanted) { show(parseInt(wanted[1], 10)); }
  if (hash === "#autoplay") {
    var guard = steps.length + 1;
    while (at < steps.length - 1 && guard-- > 0) { $("forward").click(); }
  }
  if (hash === "#controls") {   // each control as a person uses it, the step it led to
    var seen = [];
    var press = function (key) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
      seen.push(key + "=" + at);
    };
    press("End"); press("ArrowLeft"); press("ArrowRight"); press("Home"); press("ArrowRight");
    slider.value = String(Math.floor((steps.length - 1) / 2));
    slider.dispatchEvent(new Event("input"));
    seen.push("slider=" + at);
    [["back", "back"], ["last", "last"], ["first", "first"], ["forward", "forward"]].forEach(
      function (b) { $(b[0]).click(); seen.push(b[1] + "=" + at); });
    document.body.setAttribute("data-controls", seen.join(" "));
  }
  document.body.setAttribute("data-ready", "1");
}());
