// warband build: the page's few lines of script. A change to an entry sends its form to the
// builder, which judges the whole list again (the validator of `warband validate`) and answers
// with the list as it now stands; the script puts that in place. It knows no rule: no cost,
// no limit, no option is worked out here. Requests go one after another, in the order made.
(function () {
  "use strict";
  var token = document.querySelector('meta[name="warband-token"]').content;
  var queue = Promise.resolve();

  function remember() {
    var el = document.activeElement;
    if (!el || !el.id) { return null; }
    var kept = { id: el.id, typing: el.dataset && el.dataset.typing === "1", value: el.value };
    try { kept.start = el.selectionStart; kept.end = el.selectionEnd; } catch (e) { kept.start = null; }
    return kept;
  }

  function trouble(text) {
    // said on the page, as text: the builder stopped, or refused the request
    var box = document.getElementById("trouble");
    if (!box) {
      box = document.createElement("p");
      box.id = "trouble";
      box.setAttribute("role", "alert");
      document.body.insertBefore(box, document.body.firstChild);
    }
    box.textContent = text;
    document.body.dataset.error = text;
  }

  function swap(html) {
    var kept = remember();
    var made = document.createElement("template");
    made.innerHTML = html;
    var fresh = made.content.getElementById("sheet");
    var old = document.getElementById("sheet");
    if (!fresh || !old) { trouble("The builder did not answer as expected."); return; }
    var gone = document.getElementById("trouble");
    if (gone) { gone.remove(); }
    old.replaceWith(fresh);
    var focus = fresh.dataset.focus ? document.getElementById(fresh.dataset.focus) : null;
    if (focus) {
      focus.focus();
      focus.scrollIntoView({ block: "center" });
      if (focus.select) { focus.select(); }
      return;
    }
    var el = kept ? document.getElementById(kept.id) : null;
    if (!el) { return; }
    if (kept.typing) { el.value = kept.value; el.dataset.typing = "1"; }   // typed meanwhile
    el.focus({ preventScroll: true });
    try { if (kept.start !== null) { el.setSelectionRange(kept.start, kept.end); } } catch (e) { /* no selection */ }
  }

  function send(form, submitter) {
    // the form as it is now (later changes go in later requests)
    var body = new URLSearchParams(new FormData(form, submitter || undefined));
    var url = submitter && submitter.hasAttribute("formaction") ? submitter.formAction : form.action;
    document.body.classList.add("busy");
    queue = queue.then(function () {
      return fetch(url, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "X-Warband-Token": token, "X-Warband-Part": "sheet" }
      }).then(function (answer) {
        if (answer.headers.get("X-Warband-Reload")) { window.location.reload(); return null; }
        if (!answer.ok) {
          return answer.text().then(function (text) {
            trouble("The builder refused the change (" + answer.status + "): " + text);
          });
        }
        return answer.text().then(swap);
      });
    }).catch(function () {
      trouble("The builder does not answer: was `warband build` stopped? The last change " +
              "was not made.");
    }).then(function () {
      document.body.classList.remove("busy");
      document.body.dataset.done = String(Number(document.body.dataset.done || 0) + 1);
    });
  }

  function live(form) {
    return form && (form.hasAttribute("data-live") || form.hasAttribute("data-fetch"));
  }

  document.addEventListener("input", function (event) {
    if (event.target.form && event.target.form.hasAttribute("data-live")) {
      event.target.dataset.typing = "1";
    }
  });
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-live")) {
      delete event.target.dataset.typing;
      send(form, null);
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var sheet = document.getElementById("sheet");
    if (form.hasAttribute("data-leave") && sheet && sheet.dataset.unsaved === "1" &&
        !window.confirm("The list has changes that are not saved. Leave it?")) {
      event.preventDefault();
      return;
    }
    if (!live(form)) { return; }
    event.preventDefault();
    var submitter = event.submitter;
    if (submitter && submitter.classList.contains("apply")) { submitter = null; }
    send(form, submitter);
  });

  // on a phone's narrow screen the list comes first: the classes wait behind their heading
  var offer = document.getElementById("offer-list");
  if (offer && window.matchMedia("(max-width: 52rem)").matches) { offer.open = false; }
  document.body.dataset.ready = "1";
}());
