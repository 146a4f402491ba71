// okey-companion: the few lines of behaviour the pages need (no framework).
// The tile picker's text field is the truth; the grid only edits it, so the form works without JS.
(function () {
  "use strict";
  var root = document.documentElement;

  function applyTheme(theme) {
    if (theme === "light" || theme === "dark") root.dataset.theme = theme; else delete root.dataset.theme;
  }
  try { applyTheme(localStorage.getItem("theme")); } catch (e) { /* private mode: system theme */ }

  var TOKEN = /[\s,|]+/;
  var BREAK = "|";
  function parse(text) {
    return text.split(TOKEN).filter(Boolean).map(function (t) { return t.toUpperCase(); });
  }
  // A melds picker (data-picker-melds: a Rummikub table) keeps "|" between melds as a token of its own.
  function parseMelds(text) {
    return text.replace(/\|/g, " | ").split(/[\s,]+/).filter(Boolean).map(function (t) { return t.toUpperCase(); });
  }
  function tokens(picker) {
    var text = picker.querySelector("[data-picker-text]").value;
    return picker.hasAttribute("data-picker-melds") ? parseMelds(text) : parse(text);
  }

  function syncPicker(picker) {
    var codes = tokens(picker);
    var counts = {};
    codes.forEach(function (c) { if (c !== BREAK) counts[c] = (counts[c] || 0) + 1; });
    picker.querySelectorAll("[data-tile]").forEach(function (b) {
      var n = counts[b.dataset.tile] || 0;
      b.dataset.count = String(n);
      b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      b.querySelector(".count").textContent = n ? String(n) : "";
    });
    var chosen = picker.querySelector("[data-picker-chosen]");
    if (chosen) {
      chosen.textContent = "";
      codes.forEach(function (c, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = c === BREAK ? "tile meld-break" : "tile " + c.charAt(0);
        b.textContent = c.length === 1 ? c : c.slice(1);
        b.title = c;
        b.setAttribute("aria-label", chosen.dataset.removeLabel + " " + c);
        b.dataset.index = String(i);
        chosen.appendChild(b);
      });
    }
    var counter = picker.querySelector("[data-picker-count]");
    if (counter) counter.textContent = String(codes.filter(function (c) { return c !== BREAK; }).length);
  }

  function setCodes(picker, codes) {
    var field = picker.querySelector("[data-picker-text]");
    field.value = codes.join(" ");
    field.dispatchEvent(new Event("change", { bubbles: true }));
    syncPicker(picker);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target.closest("[data-theme-toggle]");
    if (t) {
      var dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
      var next = dark ? "light" : "dark";
      applyTheme(next);
      try { localStorage.setItem("theme", next); } catch (e) { /* ignore */ }
      return;
    }
    var picker = ev.target.closest("[data-picker]");
    if (!picker) return;
    var codes = tokens(picker);
    if (ev.target.closest("[data-picker-break]")) {  // a new meld starts after the last tile (never two breaks)
      if (codes.length && codes[codes.length - 1] !== BREAK) { codes.push(BREAK); setCodes(picker, codes); }
      return;
    }
    var add = ev.target.closest("[data-tile]");
    if (add) {
      var code = add.dataset.tile;
      var have = codes.filter(function (c) { return c === code; }).length;
      // Tap cycles 0 -> 1 -> 2 -> 0: a set holds two of each tile.  A one-tile picker swaps the tile.
      if (picker.hasAttribute("data-picker-single")) codes = have ? [] : [code];
      else if (have >= 2) codes = codes.filter(function (c) { return c !== code; }); else codes.push(code);
      setCodes(picker, codes);
      return;
    }
    var remove = ev.target.closest("[data-picker-chosen] .tile");
    if (remove) {
      codes.splice(Number(remove.dataset.index), 1);
      setCodes(picker, codes);
      return;
    }
    if (ev.target.closest("[data-picker-clear]")) {
      forgetPhotos(picker);
      setCodes(picker, []);
    }
  });

  // Opening checker: move the picker's melds into the melds box, one line each (a "|" parts two melds).
  document.addEventListener("click", function (ev) {
    var add = ev.target.closest("[data-add-meld]");
    if (!add) return;
    var picker = document.getElementById(add.dataset.from);
    var box = document.getElementById(add.dataset.addMeld);
    var lines = parseMelds(picker.querySelector("[data-picker-text]").value).join(" ").split(BREAK)
      .map(function (line) { return line.trim(); }).filter(Boolean);
    if (!lines.length) return;
    box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + lines.join("\n");
    forgetPhotos(picker);
    setCodes(picker, []);
  });

  document.addEventListener("input", function (ev) {
    var seat = ev.target.name && /^player(\d)$/.exec(ev.target.name);
    if (seat) document.querySelectorAll('[data-seat-label="' + seat[1] + '"]').forEach(function (label) {
      label.textContent = ev.target.value.trim() || label.dataset.seatDefault;
    });
    var picker = ev.target.closest("[data-picker]");
    if (picker && ev.target.matches("[data-picker-text]")) syncPicker(picker);
  });

  // Photo recognition: low-confidence tiles must be tapped (confirmed) or corrected before use.
  function refreshPhoto(result) {
    var pending = result.querySelectorAll("[data-rec].low:not(.confirmed)").length;
    var use = result.querySelector("[data-use-photo]");
    if (use) use.disabled = pending > 0;
    var add = result.querySelector("[data-add-photo]");
    if (add) add.disabled = pending > 0;
    var left = result.querySelector("[data-pending]");
    if (left) left.textContent = String(pending);
  }
  // A tile marked as the last photo's (↔) that is not: ≠ counts it too (and a second tap takes that back).
  document.addEventListener("click", function (ev) {
    var unlink = ev.target.closest("[data-unlink]");
    if (!unlink) return;
    var tile = document.querySelector('[data-rec="' + unlink.dataset.unlink + '"]');
    if (!tile) return;
    var apart = unlink.getAttribute("aria-pressed") !== "true";
    if (apart) {
      tile.dataset.wasSame = tile.dataset.same;
      delete tile.dataset.same;
    } else if (tile.dataset.wasSame !== undefined) {
      tile.dataset.same = tile.dataset.wasSame;
    }
    unlink.setAttribute("aria-pressed", apart ? "true" : "false");
    tile.classList.toggle("seen", !apart);
  });
  document.addEventListener("click", function (ev) {
    var rec = ev.target.closest("[data-rec]");
    if (rec && !ev.target.closest("select")) {
      rec.classList.add("confirmed");
      var list = rec.parentElement.querySelector("select[data-rec-fix][hidden]");
      if (list) list.hidden = false;  // a sure tile tapped: its list to mend it, should it be read wrong
      var box = document.getElementById("box-" + rec.dataset.rec);
      if (box) box.classList.add("confirmed");
      refreshPhoto(rec.closest(".photo-result"));
      return;
    }
    var use = ev.target.closest("[data-use-photo], [data-add-photo]");
    if (use) {
      var result = use.closest(".photo-result");
      var picker = document.getElementById(result.dataset.forPicker);
      if (!picker) return;
      var photo = photoTiles(result);
      var rack = [];
      if (use.matches("[data-add-photo]")) {
        // A second photo of the same rack: a tile the last photo shows too (data-same, found by laying the
        // photos over each other) counts once; without any, rows go on from where the last photo's end.
        // The tiles as the picker holds them now: the last photos' rack, unless they were changed since by hand.
        var typed = parse(picker.querySelector("[data-picker-text]").value);
        rack = picker.dataset.photoRows ? JSON.parse(picker.dataset.photoRows) : [];
        if (rackCodes(rack).join(" ") !== typed.join(" ")) rack = [typed.map(function (code) { return { code: code, seen: null }; })];
      }
      var links = photo.map(function (t) { return t.same; });
      if (result.dataset.keep) sendLabels(result, photo);
      rack = addPhoto(rack, photo, links);
      picker.dataset.photoRows = JSON.stringify(rack);
      var after = document.getElementById(picker.id + "-after");
      if (after) after.value = JSON.stringify({ size: result.dataset.size.split(" ").map(Number),
        tiles: photo.map(function (t) { return { code: t.code, box: t.box, cut: t.cut }; }) });
      if (!picker.hasAttribute("data-photo-melds")) setCodes(picker, rackCodes(rack));
      else if (!use.matches("[data-add-photo]")) setCodes(picker, meldCodes(photo));
      else {
        // Melds photographed in two parts: the second photo's melds after those the picker holds, a tile the last
        // photo shows too (data-same) left out, as it is there already.
        var held = tokens(picker);
        var added = meldCodes(photo.filter(function (t) { return t.same === null; }));
        setCodes(picker, held.length && added.length && held[held.length - 1] !== BREAK ? held.concat([BREAK], added) : held.concat(added));
      }
    }
  });
  // The host keeps photos (serve --keep-photos): the tiles as used go back to it, each with how it was checked.
  function sendLabels(result, photo) {
    var token = "";
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch (e) { /* none */ }
    var tiles = [];
    result.querySelectorAll("[data-rec]").forEach(function (r, i) {
      var index = Number(r.dataset.rec.split("-").pop());
      tiles.push({ index: index, code: photo[i].code,
        checked: photo[i].fixed ? "fixed" : r.classList.contains("confirmed") ? "confirmed" : "accepted" });
    });
    fetch(result.dataset.keep, { method: "POST", keepalive: true, body: JSON.stringify({ tiles: tiles }),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token } }).catch(function () { /* only a measure */ });
  }
  // A photo of melds laid on the table (a melds picker: the opening checker, the turn referee's table): its tiles
  // meld by meld as vision.melds.photo_melds split them (data-meld, data-meld-place), a "|" between melds.
  function meldCodes(photo) {
    var order = photo.map(function (t, i) { return i; });
    order.sort(function (a, b) { return photo[a].meld - photo[b].meld || photo[a].meldPlace - photo[b].meldPlace || a - b; });
    var codes = [];
    order.forEach(function (i, k) {
      if (k > 0 && photo[i].meld !== photo[order[k - 1]].meld) codes.push(BREAK);
      codes.push(photo[i].code);
    });
    return codes;
  }
  function rackCodes(rack) {
    return [].concat.apply([], rack.map(function (row) { return row.map(function (t) { return t.code; }); }));
  }
  function forgetPhotos(picker) {
    delete picker.dataset.photoRows;
    var after = document.getElementById(picker.id + "-after");
    if (after) after.value = "";
  }
  // A photo's tiles as the page shows them: code (as confirmed or picked), row and place, cut by the frame,
  // and which tile of the last photo it is (data-same), if any.
  function photoTiles(result) {
    var tiles = [];
    result.querySelectorAll("[data-rec]").forEach(function (r) {
      var fix = r.parentElement.querySelector("select");
      tiles.push({ code: fix && fix.value ? fix.value : r.dataset.code, row: Number(r.dataset.row || 0),
        place: Number(r.dataset.place || tiles.length), cut: r.hasAttribute("data-cut"), fixed: !!(fix && fix.value),
        meld: Number(r.dataset.meld || 0), meldPlace: Number(r.dataset.meldPlace || tiles.length),
        box: (r.dataset.box || "0 0 1 1").split(" ").map(Number),
        same: r.dataset.same === undefined ? null : Number(r.dataset.same) });
    });
    return tiles;
  }
  // The twin of vision.pairs.add_photo (see there): rows of {code, cut, fixed, seen}, where seen is the
  // tile's index in the last photo added; a tile linked to one of those counts once.
  function addPhoto(rack, photo, links) {
    var out = rack.map(function (row) { return row.map(function (t) { return Object.assign({}, t, { seen: null }); }); });
    var bySeen = {};
    rack.forEach(function (row, r) { row.forEach(function (t, k) { if (t.seen !== null && t.seen !== undefined) bySeen[t.seen] = out[r][k]; }); });
    var linked = {}, any = false, used = [];
    links.forEach(function (link, j) {
      var here = link === null ? undefined : bySeen[link];
      if (here === undefined || used.indexOf(here) >= 0) return;
      var there = photo[j];
      if (!here.fixed && here.cut && (!there.cut || there.code.length > here.code.length)) {
        here.code = there.code;
        here.cut = there.cut;
      }
      here.seen = j;
      linked[j] = here;
      used.push(here);
      any = true;
    });
    var numbers = [];
    photo.forEach(function (t) { if (numbers.indexOf(t.row) < 0) numbers.push(t.row); });
    numbers.sort(function (a, b) { return a - b; });
    numbers.forEach(function (number, index) {
      var members = [];
      photo.forEach(function (t, j) { if (t.row === number) members.push(j); });
      members.sort(function (a, b) { return photo[a].place - photo[b].place || a - b; });
      var fresh = function (j) { var t = photo[j]; return { code: t.code, cut: t.cut, fixed: t.fixed, seen: j }; };
      if (!any) {
        // The photos could not be laid over each other: row by row, the longest end of the rack's row
        // that the photo's row starts with counts once (vision.rack.merge_rows).
        while (out.length <= index) out.push([]);
        var row = out[index], k = Math.min(row.length, members.length);
        var codes = function (list) { return list.map(function (t) { return t.code; }).join(" "); };
        while (k > 0 && codes(row.slice(row.length - k)) !== codes(members.slice(0, k).map(function (j) { return photo[j]; }))) k--;
        members.forEach(function (j, m) { if (m < k) row[row.length - k + m].seen = j; else row.push(fresh(j)); });
        return;
      }
      var homes = members.filter(function (j) { return linked[j]; }).map(function (j) { return rowOf(out, linked[j]); });
      var target;
      if (homes.length) {
        target = homes.slice().sort(function (a, b) { return count(homes, b) - count(homes, a) || a - b; })[0];
      } else if (number < out.length) {
        target = number;
      } else {
        out.push([]);
        target = out.length - 1;
      }
      var into = out[target];
      var firsts = members.filter(function (j) { return linked[j] && into.indexOf(linked[j]) >= 0; });
      var cursor = firsts.length ? into.indexOf(linked[firsts[0]]) : into.length;
      members.forEach(function (j) {
        if (linked[j]) {
          if (into.indexOf(linked[j]) >= 0) cursor = into.indexOf(linked[j]) + 1;
          return;
        }
        into.splice(cursor, 0, fresh(j));
        cursor++;
      });
    });
    return out.filter(function (row) { return row.length; });
  }
  function rowOf(rack, tile) {
    for (var r = 0; r < rack.length; r++) if (rack[r].indexOf(tile) >= 0) return r;
    return -1;
  }
  function count(list, value) { return list.filter(function (v) { return v === value; }).length; }
  // "One tile away from a win": a tap changes that unsure tile to the tile offered (never by itself).
  document.addEventListener("click", function (ev) {
    var away = ev.target.closest("[data-one-away]");
    if (!away) return;
    var rec = document.querySelector('[data-rec="' + away.dataset.oneAway + '"]');
    if (!rec) return;
    recode(rec, away.dataset.code);
    rec.classList.add("confirmed");
    var fix = rec.parentElement.querySelector("select");
    if (fix) fix.value = away.dataset.code;
    var box = document.getElementById("box-" + rec.dataset.rec);
    if (box) box.classList.add("confirmed");
    refreshPhoto(rec.closest(".photo-result"));
  });
  // A box tapped on the photo: its tile in the list below, scrolled to and pointed at for a moment.
  document.addEventListener("click", function (ev) {
    var box = ev.target.closest(".photo-result rect.box[id^='box-']");
    if (!box) return;
    var rec = document.querySelector('[data-rec="' + box.id.slice(4) + '"]');
    if (!rec) return;
    rec.scrollIntoView({ block: "center", behavior: "smooth" });
    rec.classList.add("pointed");
    setTimeout(function () { rec.classList.remove("pointed"); }, 2000);
  });
  // "Dashed yellow tiles → red": every dashed tile still as it was read in that colour whose colour the reader
  // doubted for that other takes it (its number kept); it stays dashed, to confirm.  A second tap puts back those it
  // changed.
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-recolour]");
    if (!button) return;
    var result = button.closest(".photo-result");
    var read = button.dataset.recolour[0], other = button.dataset.recolour[1];
    var on = button.getAttribute("aria-pressed") !== "true";
    result.querySelectorAll("[data-rec]").forEach(function (rec) {
      var offered = other + rec.dataset.read.slice(1);
      if (on && rec.matches(".low:not(.confirmed)") && rec.dataset.code === rec.dataset.read && rec.dataset.read[0] === read
          && rec.dataset.other === other) {
        recode(rec, offered);
        rec.dataset.recoloured = button.dataset.recolour;
      } else if (!on && rec.dataset.recoloured === button.dataset.recolour) {
        if (rec.dataset.code === offered) recode(rec, rec.dataset.read);
        delete rec.dataset.recoloured;
      }
    });
    button.setAttribute("aria-pressed", on ? "true" : "false");
  });
  // A photo's tile read as another: its code, its text and its colour, and its box's code.
  function recode(rec, code) {
    rec.dataset.code = code;
    var mark = rec.querySelector(".seen-mark");  // "also in the last photo" stays on the tile
    rec.textContent = code;
    if (mark) rec.appendChild(mark);
    rec.className = rec.className.replace(/\btile [RYBKFJ]\b/, "tile " + code[0]);
    var box = document.getElementById("box-" + rec.dataset.rec);
    if (box) box.dataset.code = code;
  }
  // The end-of-hand forms record with a tap on their button only: Enter (a phone keyboard's "Go") in a
  // field previews instead, so typing one player's sum never records a half-filled hand.
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !ev.target.matches("input") || !ev.target.closest("form[data-enter-previews]")) return;
    ev.preventDefault();
    ev.target.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // 101 end of hand (templates/okey101_hand.html): one step at a time — how the hand ended, each player,
  // the scores; on a wide screen the scores stay beside the step.  Back/Next are links to the steps, so
  // without this every step shows and they scroll.  Whoever finished has no rack (their rack, sum and okeys
  // are hidden and disabled, so not sent) and has opened; nobody finishing has no okey discard or elden.
  var WIDE = "(min-width: 900px)";
  function syncFinisher(form) {
    var chosen = form.querySelector("input[name=finisher]:checked");
    var finisher = chosen ? chosen.value : null;
    form.querySelectorAll("[data-step][data-seat]").forEach(function (step) {
      var done = finisher === step.dataset.seat;
      step.querySelectorAll("[data-finished-note]").forEach(function (note) { note.hidden = !done; });
      var rack = step.querySelector("[data-rack-part]");
      rack.hidden = done;
      rack.querySelectorAll("input, button").forEach(function (el) { el.disabled = done; });
      var notOpened = step.querySelector("[data-not-opened]");
      var none = notOpened.querySelector("input");
      notOpened.hidden = done;
      none.disabled = done;
      if (done && none.checked) step.querySelector("input[value=melds]").checked = true;
    });
    var kind = form.querySelector("[data-finish-kind]");
    kind.hidden = finisher === "none";
    kind.querySelectorAll("input").forEach(function (el) { el.disabled = finisher === "none"; });
    if (finisher) form.querySelector("[data-need-finisher]").hidden = true;
  }
  function showStep(form, step, moved) {
    var steps = form.querySelectorAll("[data-step]");
    if (!step) step = steps[0];
    if (step.matches(".hand-check") && matchMedia(WIDE).matches) step = steps[steps.length - 2];
    steps.forEach(function (s) { s.classList.toggle("current", s === step); });
    if (moved) {
      step.scrollIntoView({ block: "start" });
      step.focus({ preventScroll: true });
    }
  }
  function stepOf(form, hash) {
    var id = (hash || "").replace(/^#/, "");
    var step = id && document.getElementById(id);
    return step && step.matches("[data-step]") && (!form || form.contains(step)) ? step : null;
  }
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest("[data-step-link]");
    var step = link && stepOf(null, link.getAttribute("href"));
    var form = step && step.closest("form[data-stepper].stepping");
    if (!form) return;
    ev.preventDefault();
    var here = form.querySelector("[data-step].current");
    if (here && here.id === "hand-step-finish" && step !== here && !form.querySelector("input[name=finisher]:checked")) {
      var need = form.querySelector("[data-need-finisher]");
      need.hidden = false;
      need.scrollIntoView({ block: "nearest" });
      return;
    }
    history.pushState(null, "", "#" + step.id);
    showStep(form, step, true);
  });
  window.addEventListener("popstate", function () {
    document.querySelectorAll("form[data-stepper]").forEach(function (form) {
      showStep(form, stepOf(form, location.hash), true);
    });
  });
  document.addEventListener("change", function (ev) {
    var form = ev.target.matches("input[name=finisher]") && ev.target.closest("form[data-stepper]");
    if (form) syncFinisher(form);
  });
  function startStepper(form) {
    if (form.classList.contains("stepping")) return;
    form.classList.add("stepping");
    syncFinisher(form);
    var open = form.dataset.openStep ? document.getElementById("hand-step-" + form.dataset.openStep) : null;
    showStep(form, stepOf(form, location.hash) || open, false);
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.matches("[data-rec-fix]")) {
      var rec = ev.target.parentElement.querySelector("[data-rec]");
      rec.classList.add("confirmed");
      if (ev.target.value) recode(rec, ev.target.value);
      refreshPhoto(rec.closest(".photo-result"));
    }
  });

  // A verdict's melds drawn over the photo they came from: each group's boxes in one colour.
  var GROUP_COLOURS = ["#e63946", "#2a9d8f", "#f4a261", "#457b9d", "#9b5de5", "#43aa8b", "#f15bb5"];
  function drawGroups() {
    var melds = document.querySelectorAll("[data-meld]");
    document.querySelectorAll(".photo-result").forEach(function (result) {
      var boxes = Array.prototype.slice.call(result.querySelectorAll("rect[data-code]"));
      boxes.forEach(function (box) { box.style.stroke = ""; });
      melds.forEach(function (meld, i) {
        var colour = GROUP_COLOURS[i % GROUP_COLOURS.length];
        meld.style.borderColor = colour;
        meld.dataset.meld.split(" ").forEach(function (code) {
          var box = boxes.filter(function (b) { return b.dataset.code === code && !b.style.stroke; })[0];
          if (box) box.style.stroke = colour;
        });
      });
    });
  }

  // New table: with "partners" ticked the seat map shows the teams (opposite seats, 1 & 3 against 2 & 4).
  function showTeams() {
    var box = document.querySelector("input[name=opt_partners]");
    var map = document.querySelector("svg.seat-map");
    if (!box || !map) return;
    map.classList.toggle("partners", box.checked);
    document.querySelectorAll("[data-team-hint]").forEach(function (hint) { hint.hidden = !box.checked; });
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.matches("input[name=opt_partners]")) showTeams();
  });

  // The live update swaps the sheet every 2 s after a change: the cells ("why this number") and other
  // <details id> the reader opened stay open.  htmx swaps the live part out-of-band before the poller.
  var openDetails = [];
  function rememberOpen() {
    var open = document.querySelectorAll("details[open][id]");
    openDetails = Array.prototype.map.call(open, function (details) { return details.id; });
  }
  function reopen() {
    openDetails.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS") details.open = true;
    });
  }
  document.addEventListener("htmx:beforeSwap", rememberOpen);
  document.addEventListener("htmx:oobBeforeSwap", rememberOpen);
  document.addEventListener("htmx:oobAfterSwap", reopen);
  document.addEventListener("htmx:afterSwap", reopen);

  // Card picker (templates/_cards.html): the text field is the truth, the rank × suit grid edits it.
  var CARD_SPLIT = /[\s,;|]+/;
  var SUIT_INPUT = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
  var SUIT_SHOWN = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function cardCode(token) {
    var t = token.replace(/[\ufe0e\ufe0f]/g, "").toUpperCase();
    if (t === "JOKER" || t === "🃏") return "*";
    var last = t.slice(-1);
    if (SUIT_INPUT[last]) t = t.slice(0, -1) + SUIT_INPUT[last];
    if (t.charAt(0) === "T" && t.length === 2) t = "10" + t.slice(1);
    return t;
  }
  function parseCards(text) {
    return text.split(CARD_SPLIT).filter(Boolean).map(cardCode);
  }
  function cardFace(code, el) {
    if (code === "*") { el.className = "pc joker"; el.textContent = "★"; return; }
    var suit = code.slice(-1);
    el.className = "pc " + suit;
    el.textContent = code.slice(0, -1);
    var small = document.createElement("small");
    small.textContent = SUIT_SHOWN[suit] || "?";
    el.appendChild(small);
  }
  function syncCards(picker) {
    var codes = parseCards(picker.querySelector("[data-card-text]").value);
    var counts = {};
    codes.forEach(function (c) { counts[c] = (counts[c] || 0) + 1; });
    picker.querySelectorAll("[data-card]").forEach(function (b) {
      var n = counts[b.dataset.card] || 0;
      b.dataset.count = String(n);
      b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      b.querySelector(".count").textContent = n ? String(n) : "";
    });
    var chosen = picker.querySelector("[data-card-chosen]");
    chosen.textContent = "";
    codes.forEach(function (c, i) {
      var b = document.createElement("button");
      b.type = "button";
      cardFace(c, b);
      b.title = c;
      b.setAttribute("aria-label", chosen.dataset.removeLabel + " " + c);
      b.dataset.index = String(i);
      chosen.appendChild(b);
    });
    var counter = picker.querySelector("[data-card-count]");
    counter.textContent = String(codes.length);
    var max = Number(picker.dataset.max || 0);
    counter.classList.toggle("over", max > 0 && codes.length > max);
  }
  function setCards(picker, codes) {
    var field = picker.querySelector("[data-card-text]");
    field.value = codes.join(" ");
    field.dispatchEvent(new Event("change", { bubbles: true }));
    syncCards(picker);
  }
  document.addEventListener("click", function (ev) {
    var picker = ev.target.closest("[data-card-picker]");
    if (!picker) return;
    var codes = parseCards(picker.querySelector("[data-card-text]").value);
    var add = ev.target.closest("[data-card]");
    if (add) {
      var code = add.dataset.card;
      var limit = Number(code === "*" ? picker.dataset.jokers : picker.dataset.copies) || 1;
      var have = codes.filter(function (c) { return c === code; }).length;
      // A tap adds one more copy, up to what the decks hold; one more tap clears the card.
      if (have >= limit) codes = codes.filter(function (c) { return c !== code; }); else codes.push(code);
      setCards(picker, codes);
      return;
    }
    var remove = ev.target.closest("[data-card-chosen] .pc");
    if (remove) { codes.splice(Number(remove.dataset.index), 1); setCards(picker, codes); return; }
    if (ev.target.closest("[data-card-undo]")) { codes.pop(); setCards(picker, codes); return; }
    if (ev.target.closest("[data-card-clear]")) setCards(picker, []);
  });
  document.addEventListener("input", function (ev) {
    var picker = ev.target.closest("[data-card-picker]");
    if (picker && ev.target.matches("[data-card-text]")) syncCards(picker);
  });
  // Opening checker for cards: move the meld picker's cards into the melds box as one more line.
  document.addEventListener("click", function (ev) {
    var add = ev.target.closest("[data-add-cards]");
    if (!add) return;
    var picker = document.getElementById(add.dataset.from);
    var box = document.getElementById(add.dataset.addCards);
    var codes = parseCards(picker.querySelector("[data-card-text]").value);
    if (!codes.length) return;
    box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + codes.join(" ");
    setCards(picker, []);
  });

  function init(scope) {
    showTeams();
    scope.querySelectorAll("[data-card-picker]").forEach(syncCards);
    scope.querySelectorAll("[data-picker]").forEach(syncPicker);
    scope.querySelectorAll(".photo-result").forEach(refreshPhoto);
    scope.querySelectorAll("form[data-stepper]").forEach(startStepper);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSettle", function () { init(document); drawGroups(); });

  // Rummikub's shared turn timer (R4): the server says who started when and what its clock reads; every
  // phone counts down from that, so they agree whatever their own clocks say.  At 0: a beep and a buzz.
  function buzz() {
    try { if (navigator.vibrate) navigator.vibrate([300, 120, 300]); } catch (e) { /* no vibration */ }
    try {
      var audio = new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (e) { /* no sound */ }
  }
  document.querySelectorAll("[data-turn-timer]").forEach(function (box) {
    var timer = null, offset = 0, buzzed = null;
    var clock = box.querySelector("[data-timer-clock]"), who = box.querySelector("[data-timer-who]");
    var up = box.querySelector("[data-timer-up]");
    function show() {
      if (!timer || timer.started === null) return;
      var left = Math.max(0, Math.ceil(timer.started + timer.seconds - (Date.now() / 1000 + offset)));
      clock.textContent = String(left);
      who.textContent = box.dataset.whoText.replace("__NAME__", timer.name);
      box.classList.toggle("up", left === 0);
      up.hidden = left > 0;
      if (left === 0) {
        up.textContent = box.dataset.upText.replace("__NAME__", timer.name);
        if (buzzed !== timer.started) { buzzed = timer.started; buzz(); }
      }
    }
    function load(data) { timer = data; offset = data.now - Date.now() / 1000; show(); }
    function poll() {
      fetch(box.dataset.url, { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); }).then(load).catch(function () { /* try again */ });
    }
    box.addEventListener("click", function (ev) {
      var seat = ev.target.closest("[data-timer-seat]");
      if (!seat) return;
      var body = new FormData();
      body.append("csrf_token", box.dataset.csrf);
      body.append("seat", seat.dataset.timerSeat);
      buzzed = null;
      fetch(box.dataset.startUrl, { method: "POST", body: body })
        .then(function (r) { return r.json(); }).then(load).catch(function () { /* poll will tell */ });
    });
    poll();
    setInterval(poll, 2000);
    setInterval(show, 250);
  });
})();
