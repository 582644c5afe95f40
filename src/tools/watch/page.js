// sandglass watch: draws the state the server sends (Server-Sent Events from /events), ticks
// the clocks and the elapsed bar between messages, and says "disconnected" when the messages
// stop. The saved page holds its last state in window.WATCH_SAVED and draws it once.
(function () {
  'use strict';
  var SIDES = ['White', 'Black'];
  // The server ticks every second; this much silence means it is gone.
  var LOST_AFTER_MS = 3000;
  var saved = window.WATCH_SAVED;
  var state = null;
  var offset = 0; // performance.now() minus the server's clock
  var lastMessage = 0;
  var lost = false;
  var over = false;

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;')
      .replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  // A duration with its unit: "850 ms", "1.23 s", "12.3 s".
  function fmt(ms) {
    if (ms === null || ms === undefined || !isFinite(ms)) { return '\u2013'; }
    var a = Math.abs(ms);
    if (a < 1000) { return Math.round(ms) + ' ms'; }
    if (a < 10000) { return (ms / 1000).toFixed(2) + ' s'; }
    return (ms / 1000).toFixed(1) + ' s';
  }
  function clockText(ms) { return (Math.max(0, ms) / 1000).toFixed(1) + ' s'; }
  // Once the server is lost, the page's clock stops where it was: a clock that ran on
  // would show time that no one is spending.
  var frozenAt = null;
  function serverNow() { return frozenAt !== null ? frozenAt : performance.now() - offset; }
  function elapsedNow() {
    var t = state && state.thinking;
    return t ? Math.max(0, serverNow() - t.started_ms) : 0;
  }

  // The bar of one move: the elapsed time (blue) grows into the plan, the soft limit and
  // the hard limit; each completed depth is a tick; the dashed box is where the next depth
  // would end by the 2x rule. `o.id` names the parts the clock tick updates.
  function bar(o) {
    var scale = o.scale;
    function pct(ms) { return Math.max(0, Math.min(100, 100 * ms / scale)); }
    var h = '<div class="bar"><div class="track">';
    h += '<div class="fill" id="' + o.id + '-fill" style="width:' + pct(o.elapsed) + '%"></div>';
    if (o.next) {
      var a = pct(o.next[0]);
      var b = pct(o.next[1]);
      h += '<div class="ghost" style="left:' + a + '%;width:' + Math.max(0.5, b - a) + '%"></div>';
    }
    var lastLabel = -100;
    (o.ticks || []).forEach(function (t) {
      var p = pct(t[0]);
      var label = '';
      if (p - lastLabel > 3.5) { label = '<span>' + t[1] + '</span>'; lastLabel = p; }
      h += '<div class="tick" style="left:' + p + '%">' + label + '</div>';
    });
    var labels = [];
    if (o.plan !== null && o.plan !== undefined) {
      h += '<div class="mark plan" style="left:' + pct(o.plan) + '%"></div>';
      labels.push({ at: pct(o.plan), text: 'plan ' + fmt(o.plan), cls: 'plan' });
    }
    if (o.base !== null && o.base !== undefined && o.soft !== null && Math.abs(o.base - o.soft) >= 1) {
      h += '<div class="mark base" style="left:' + pct(o.base) + '%"></div>';
    }
    if (o.soft !== null && o.soft !== undefined) {
      h += '<div class="mark soft" style="left:' + pct(o.soft) + '%"></div>';
      labels.push({ at: pct(o.soft), text: 'soft ' + fmt(o.soft), cls: 'soft' });
    }
    if (o.hard !== null && o.hard !== undefined) {
      h += '<div class="mark hard" style="left:' + pct(o.hard) + '%"></div>';
      labels.push({ at: pct(o.hard), text: 'hard ' + fmt(o.hard), cls: 'hard' });
    }
    h += '</div>';
    // Labels above and below the bar, each row keeping its labels apart.
    labels.sort(function (x, y) { return x.at - y.at; });
    var ends = { above: -100, below: -100 };
    labels.forEach(function (l) {
      var width = l.text.length * 1.05; // in % of a bar about 1000 px wide
      var right = l.at + width > 100;
      var from = right ? l.at - width : l.at;
      var row = from > ends.above + 1 ? 'above' : (from > ends.below + 1 ? 'below' : 'above');
      ends[row] = right ? l.at : l.at + width;
      h += '<div class="label ' + row + ' ' + l.cls + (right ? ' right' : '') +
        '" style="left:' + l.at + '%">' + esc(l.text) + '</div>';
    });
    h += '</div><div class="legend"><span><span class="key elapsed"></span>elapsed <b id="' +
      o.id + '-elapsed">' + fmt(o.elapsed) + '</b></span>';
    if (o.next) {
      h += '<span><span class="key next"></span>next depth would end \u2248 ' + fmt(o.next[1]) + '</span>';
    }
    if (o.base !== null && o.base !== undefined && o.soft !== null && Math.abs(o.base - o.soft) >= 1) {
      h += '<span><span class="key base"></span>soft before the adjustments ' + fmt(o.base) + '</span>';
    }
    if (o.ticks && o.ticks.length) {
      h += '<span>ticks: each depth completed</span>';
    }
    return h + '</div>';
  }

  function barOf(t, elapsed, finalSoft, id) {
    var plan = t.plan;
    var checks = t.checks || [];
    var last = checks.length ? checks[checks.length - 1] : null;
    var ticks = (t.iterations || []).map(function (i) { return [i.at_ms, i.depth]; });
    var next = last && last.next_end_ms !== null ? [last.elapsed_ms, last.next_end_ms] : null;
    if (!plan) {
      var scale = Math.max(1000, elapsed * 1.3);
      return bar({ id: id, scale: scale, elapsed: elapsed, ticks: ticks, next: null,
        plan: null, base: null, soft: null, hard: null });
    }
    var soft = finalSoft !== null && finalSoft !== undefined ? finalSoft : (last ? last.soft_ms : plan.soft_ms);
    return bar({ id: id, scale: Math.max(plan.hard_ms, elapsed) * 1.02, elapsed: elapsed,
      ticks: ticks, next: next, plan: plan.plan_ms, base: plan.soft_ms, soft: soft,
      hard: plan.hard_ms });
  }

  function iterationsTable(t) {
    var its = t.iterations || [];
    if (!its.length) { return '<p class="quiet">No depth completed yet.</p>'; }
    var shown = its.slice(-6);
    var longest = Math.max.apply(null, shown.map(function (i) { return i.took_ms; }).concat([1]));
    var h = '<table class="iterations"><tr><th>depth</th><th>done at</th><th class="took">took</th>' +
      '<th>score, pawns</th><th>nodes</th><th>line</th></tr>';
    shown.forEach(function (i) {
      h += '<tr><td>' + i.depth + '</td><td>' + fmt(i.at_ms) + '</td><td class="took">' +
        '<span class="mini" style="width:' + Math.max(2, 140 * i.took_ms / longest) + 'px"></span>' +
        fmt(i.took_ms) + '</td><td>' + esc(i.score) + '</td><td>' + i.nodes.toLocaleString('en') +
        '</td><td class="line">' + esc(i.pv) + '</td></tr>';
    });
    return h + '</table>';
  }

  function checkLine(t) {
    var checks = t.checks || [];
    if (!checks.length) { return ''; }
    var c = checks[checks.length - 1];
    var then = c.stop ? 'stop and play the move' : 'start depth ' + (c.depth + 1);
    return '<div class="check' + (c.stop ? ' stop' : '') + '"><b>After depth ' + c.depth +
      ', the soft stop:</b> ' + esc(c.why) + ' \u2192 <b>' + then + '</b><br><b>Adjustments:</b> ' +
      esc(c.adjust) + ' (soft ' + fmt(c.base_soft_ms) + ' \u00d7 ' + c.scale.toFixed(2) + ' = ' +
      fmt(c.soft_ms) + ')' + oddsText(c) + '</div>';
  }

  // What the learned soft stop's model makes of this check, whichever rule decides.
  function oddsText(c) {
    if (typeof c.p_change !== 'number') { return ''; }
    return '<br><b>Learned model:</b> <span class="odds">P(one more depth changes the move) = ' +
      Math.round(100 * c.p_change) + ' %</span>';
  }

  function playerOf(side) { return state.players[side]; }

  function renderNow() {
    var t = state.thinking;
    if (!t) {
      $('now-title').textContent = 'The move being thought';
      $('now-body').innerHTML = '<p class="quiet">' + esc(idleText()) + '</p>';
      return;
    }
    var who = playerOf(t.side);
    $('now-title').textContent = SIDES[t.side] + ' is thinking: move ' + t.number +
      (t.moves_to_go ? ' (' + t.moves_to_go + ' to the time control)' : '');
    var h = '';
    if (t.plan) {
      h += '<p class="why"><b>Budget</b> (' + esc(t.plan.strategy) + '): ' + esc(t.plan.why) + '</p>';
    } else if (who.kind === 'uci') {
      h += '<p class="why">' + esc(who.name) + ' does not say its plan or its limits; the bar ' +
        'shows the time it has used, and the ticks its depths.</p>';
    }
    h += barOf(t, elapsedNow(), null, 'now');
    h += checkLine(t);
    h += iterationsTable(t);
    $('now-body').innerHTML = h;
  }

  function idleText() {
    if (state.ending) { return 'The game is over.'; }
    if (state.waiting_for_viewer) { return 'The game starts when a page connects.'; }
    if (state.paused) { return 'Paused: press Resume for the next move.'; }
    if (state.hold_until_ms !== null) { return 'Holding before the next move.'; }
    return 'Between moves.';
  }

  function renderLast() {
    var p = state.last;
    if (!p) { return; }
    var t = p.thinking;
    $('last-title').textContent = SIDES[t.side] + ' played ' + p.san + ': ' + fmt(p.spent_ms) +
      ', depth ' + p.depth + (p.score ? ', score ' + p.score + ' pawns' : '');
    var h = barOf(t, p.spent_ms, p.final_soft_ms, 'last');
    h += '<p class="reason">Why it stopped: ' + esc(p.reason) + '</p>';
    var checks = t.checks || [];
    var lastCheck = checks.length ? checks[checks.length - 1] : null;
    var odds = lastCheck ? oddsText(lastCheck) : '';
    if (odds) {
      h += '<p class="why">' + odds.replace('<br>', '') + ' at the last check (depth ' +
        lastCheck.depth + ')</p>';
    }
    if (p.detail) { h += '<p class="detail">' + esc(p.detail) + '</p>'; }
    if (t.plan) {
      h += '<p class="why"><b>Adjustments:</b> ' + esc(p.adjust || 'none') +
        (p.final_soft_ms !== null ? '; soft now ' + fmt(p.final_soft_ms) : '') + '</p>';
      h += '<p class="why"><b>Budget</b> (' + esc(t.plan.strategy) + '): ' + esc(t.plan.why) + '</p>';
    }
    $('last-body').innerHTML = h;
  }

  function statusText() {
    if (lost) { return 'Disconnected: the page has lost the server'; }
    if (!state) { return 'Connecting\u2026'; }
    var e = state.ending;
    if (e) {
      return 'Game over: ' + e.result + ', ' + e.words +
        (state.saved.length ? ' \u00b7 saved ' + state.saved.join(', ') : '');
    }
    switch (state.phase) {
      case 'thinking':
        return 'Live: ' + SIDES[state.thinking.side] + ' to move' +
          (state.paused ? ' \u00b7 pauses after this move' : '');
      case 'paused': return 'Paused';
      case 'waiting': return 'Waiting for a page';
      case 'holding':
        return 'Next move in ' + Math.max(0, Math.ceil((state.hold_until_ms - serverNow()) / 1000)) + ' s';
      default: return 'Live';
    }
  }

  function renderClocks() {
    for (var s = 0; s < 2; s++) {
      var t = state.thinking;
      var moving = t && t.side === s && !state.ending;
      var ms = moving ? t.clock_before_ms - elapsedNow() : state.clocks[s];
      $('time' + s).textContent = clockText(ms);
      $('clock' + s).classList.toggle('moving', !!moving);
      var note = moving ? '\u25b6 thinking' : '';
      if (lost) { note = 'disconnected'; }
      $('note' + s).textContent = note;
    }
  }

  function render() {
    document.title = state.title;
    $('title').textContent = state.title + ' \u00b7 ' + state.tc + ' (' + state.tc_words + ')';
    if ($('board').getAttribute('data-fen') !== state.fen) {
      $('board').innerHTML = state.board_svg;
      $('board').setAttribute('data-fen', state.fen);
    }
    for (var s = 0; s < 2; s++) { $('name' + s).textContent = playerOf(s).name; }
    renderClocks();
    renderNow();
    renderLast();
    $('moves').innerHTML = state.moves.map(function (m) {
      return '<span>' + esc(m.text) + ' ' + fmt(m.spent_ms) + '</span>';
    }).join(' ');
    $('status').textContent = statusText();
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    $('pause').disabled = lost || !!state.ending;
    $('hold').disabled = lost || !!state.ending;
    document.body.classList.toggle('over', !!state.ending);
    document.body.classList.toggle('paused', state.paused && !state.ending);
    if (document.activeElement !== $('hold')) { showHold(state.hold_ms); }
  }

  // The hold in the menu; one given with --hold that the menu lacks is added to it.
  function showHold(ms) {
    var menu = $('hold');
    var value = String(ms);
    var known = Array.prototype.some.call(menu.options, function (o) { return o.value === value; });
    if (!known) {
      var o = document.createElement('option');
      o.value = value;
      o.textContent = fmt(ms);
      menu.appendChild(o);
    }
    menu.value = value;
  }

  function showFigures(svgs) {
    $('figures').innerHTML = svgs.length ? svgs.join('') :
      '<p class="quiet">The pictures start after the first move.</p>';
  }

  function heard() {
    lastMessage = performance.now();
    if (lost) { setLost(false); }
  }

  function setLost(v) {
    if (v && !lost) { frozenAt = serverNow(); }
    if (!v) { frozenAt = null; }
    lost = v;
    document.body.classList.toggle('disconnected', v);
    $('status').textContent = statusText();
    $('pause').disabled = v;
    $('hold').disabled = v;
    if (state) { renderClocks(); }
  }

  // Between messages: the clock of the side to move and the elapsed bar run on. Once the
  // server is lost they stop, and say so.
  function tick() {
    if (!state || over) { return; }
    if (!lost && performance.now() - lastMessage > LOST_AFTER_MS) { setLost(true); }
    if (lost) { return; }
    renderClocks();
    var t = state.thinking;
    if (t) {
      var el = elapsedNow();
      var fill = $('now-fill');
      var scale = t.plan ? Math.max(t.plan.hard_ms, el) * 1.02 : Math.max(1000, el * 1.3);
      if (!t.plan && el * 1.25 > scale) { renderNow(); return; }
      if (fill) { fill.style.width = Math.min(100, 100 * el / scale) + '%'; }
      var label = $('now-elapsed');
      if (label) { label.textContent = fmt(el); }
    }
    if (state.phase === 'holding') { $('status').textContent = statusText(); }
  }

  function post(query) {
    fetch('/control?action=' + query, { method: 'POST', headers: { 'X-Sandglass-Watch': '1' } })
      .catch(function () { setLost(true); });
  }

  function connect() {
    var source = new EventSource('/events');
    source.addEventListener('state', function (e) {
      heard();
      state = JSON.parse(e.data);
      offset = performance.now() - state.server_ms;
      render();
      if (state.ending) { over = true; source.close(); }
    });
    source.addEventListener('figures', function (e) {
      heard();
      showFigures(JSON.parse(e.data).svgs);
    });
    source.addEventListener('tick', function (e) {
      heard();
      offset = performance.now() - JSON.parse(e.data).server_ms;
    });
    source.onerror = function () { if (!over) { setLost(true); } };
  }

  if (saved) {
    state = saved;
    over = true;
    render();
  } else {
    $('pause').onclick = function () { post(state && state.paused ? 'resume' : 'pause'); };
    $('hold').onchange = function () { post('hold&ms=' + this.value); };
    lastMessage = performance.now();
    connect();
    setInterval(tick, 100);
  }
}());
