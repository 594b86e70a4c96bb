// The demo page: a tab per model from /api/models, a form per tab, and a renderer per task that draws
// the JSON /api/predict/<name> answers (the same JSON `allennlp predict` writes) into the page.
"use strict";

const TYPE_COLOURS = ["#dbeafe", "#dcfce7", "#fef3c7", "#f3e8ff", "#fee2e2", "#e0f2fe", "#fae8ff", "#ecfccb"];
const CLUSTER_COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#db2777", "#65a30d", "#4b5563"];
const LAYER_NAMES = ["characters", "LSTM layer 1", "LSTM layer 2", "layer 3", "layer 4"];

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// Tokens with labelled spans over them ({start, end} in tokens, end exclusive), nested where spans nest;
// a span crossing another one already open is drawn without its mark rather than cut in two.
function spannedTokens(tokens, spans) {
  const ordered = spans
    .filter((span) => span.end > span.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const root = element("span", { class: "tokens" });
  const open = [{ node: root, end: Infinity }];
  let next = 0;
  for (let index = 0; index < tokens.length; index++) {
    while (open.length > 1 && open[open.length - 1].end <= index) open.pop();
    if (index > 0) open[open.length - 1].node.append(" ");
    while (next < ordered.length && ordered[next].start === index) {
      const span = ordered[next++];
      if (span.end > open[open.length - 1].end) continue;
      const node = span.make();
      open[open.length - 1].node.append(node);
      open.push({ node, end: span.end, badge: span.badge });
    }
    open[open.length - 1].node.append(tokens[index]);
    for (let depth = open.length - 1; depth > 0 && open[depth].end === index + 1; depth--) {
      if (open[depth].badge) open[depth].node.append(element("span", { class: "badge", text: open[depth].badge }));
    }
  }
  return root;
}

function bars(probabilities, chosen) {
  const box = element("div", { class: "bars" });
  for (const [name, probability] of Object.entries(probabilities)) {
    const fill = element("div", { class: "fill" });
    fill.style.width = `${(100 * probability).toFixed(1)}%`;
    box.append(
      element(
        "div",
        { class: name === chosen ? "bar chosen" : "bar", "data-label": name, "data-probability": probability },
        element("span", { class: "name", text: name }),
        element("div", { class: "track" }, fill),
        element("span", { class: "value", text: probability.toFixed(3) }),
      ),
    );
  }
  return box;
}

const RENDERERS = {
  ner(answer) {
    const types = [...new Set(answer.entities.map((entity) => entity.type))];
    const spans = answer.entities.map((entity) => ({
      start: entity.token_start,
      end: entity.token_end,
      badge: entity.type,
      make: () => element("span", { class: "span entity", "data-type": entity.type, title: entity.type }),
    }));
    const box = element("div", {}, spannedTokens(answer.tokens, spans));
    if (!answer.entities.length) box.append(element("p", { class: "note", text: "No entities found." }));
    types.forEach((type, index) => {
      for (const node of box.querySelectorAll(`.entity[data-type="${CSS.escape(type)}"]`)) {
        if (!["PER", "LOC", "ORG", "MISC"].includes(type)) node.style.background = TYPE_COLOURS[index % TYPE_COLOURS.length];
      }
    });
    return box;
  },

  srl(answer) {
    const box = element("div", { class: "frames" });
    if (!answer.frames.length) box.append(element("p", { class: "note", text: "No predicate found." }));
    for (const frame of answer.frames) {
      const spans = frame.arguments.map((argument) => ({
        start: argument.token_start,
        end: argument.token_end,
        badge: argument.label,
        make: () => element("span", { class: "span argument", "data-label": argument.label }),
      }));
      const verb = frame.predicate.token_index;
      spans.push({
        start: verb,
        end: verb + 1,
        badge: "V",
        make: () => element("span", { class: "span predicate", "data-label": "V" }),
      });
      box.append(
        element(
          "div",
          { class: "frame", "data-predicate": frame.predicate.text },
          element("span", { class: "verb", text: frame.predicate.text }),
          spannedTokens(answer.tokens, spans),
        ),
      );
    }
    return box;
  },

  coref(answer) {
    const spans = [];
    answer.clusters.forEach((mentions, cluster) => {
      const colour = CLUSTER_COLOURS[cluster % CLUSTER_COLOURS.length];
      for (const mention of mentions) {
        spans.push({
          start: mention.token_start,
          end: mention.token_end,
          badge: String(cluster + 1),
          make: () => {
            const node = element("span", { class: "span mention", "data-cluster": cluster + 1 });
            node.style.borderColor = colour;
            return node;
          },
        });
      }
    });
    const box = element("div", {}, spannedTokens(answer.tokens, spans));
    const legend = answer.clusters.length
      ? `${answer.clusters.length} cluster${answer.clusters.length > 1 ? "s" : ""}: the number beside a mention is its cluster.`
      : "No cluster found.";
    box.append(element("p", { class: "note", text: legend }));
    return box;
  },

  squad(answer, inputs) {
    const passage = inputs.passage;
    const box = element("div");
    box.append(
      element(
        "p",
        { class: "passage" },
        passage.slice(0, answer.start),
        element("span", { class: "span answer", "data-score": answer.score, text: passage.slice(answer.start, answer.end) }),
        passage.slice(answer.end),
      ),
    );
    box.append(element("p", { class: "label" }, `${answer.answer}`, element("span", { class: "score", text: `  P = ${answer.score.toFixed(3)}` })));
    if (answer.alternatives && answer.alternatives.length) {
      const list = element("ol", { class: "alternatives" });
      for (const alternative of answer.alternatives) {
        list.append(element("li", { class: "alternative", "data-score": alternative.score, text: `${alternative.answer}  (P = ${alternative.score.toFixed(3)})` }));
      }
      box.append(element("div", { class: "alternatives" }, element("strong", { text: "Next best spans" }), list));
    }
    return box;
  },

  sst(answer) {
    return element("div", {}, element("p", { class: "label", text: answer.label }), bars(answer.probabilities, answer.label));
  },

  snli(answer) {
    return element("div", {}, element("p", { class: "label", text: answer.label }), bars(answer.probabilities, answer.label));
  },
};

function elmoChart(mixes) {
  const aside = element("aside");
  if (!mixes.length) {
    aside.append(element("h3", { text: "No ELMo" }), element("p", { text: "A baseline: word vectors (and characters) only." }));
    return aside;
  }
  aside.append(
    element("h3", { text: "What the model learned of ELMo" }),
    element("p", { text: "γ scales the mix; the bars are the softmax-normalised weights of the biLM's layers (Peters et al. 2018, eq. 1)." }),
  );
  for (const mix of mixes) {
    const weights = Object.fromEntries(mix.weights.map((weight, layer) => [LAYER_NAMES[layer] || `layer ${layer}`, weight]));
    const chart = element("div", { class: "elmo-mix", "data-place": mix.place, "data-gamma": mix.gamma });
    chart.append(element("strong", { text: `At the ${mix.place}: γ = ${mix.gamma.toFixed(3)}` }), bars(weights, null));
    aside.append(chart);
  }
  return aside;
}

function panel(model, maxChars) {
  const form = element("form", { class: "inputs" });
  const boxes = {};
  for (const field of model.fields) {
    const rows = field === model.fields[model.fields.length - 1] ? 4 : 2;
    boxes[field] = element("textarea", { name: field, rows, maxlength: maxChars });
    form.append(element("label", { text: field }), boxes[field]);
  }
  for (const option of model.optional || []) {
    boxes[option.name] = element("input", { name: option.name, type: "text", class: "optional" });
    form.append(element("label", { text: option.label }), boxes[option.name]);
  }
  const examples = element("div", { class: "buttons" }, element("button", { type: "submit", class: "submit", text: "Predict" }));
  model.examples.forEach((example, index) => {
    const button = element("button", { type: "button", class: "example", text: `Example ${index + 1}` });
    button.addEventListener("click", () => {
      for (const field of model.fields) boxes[field].value = example[field] || "";
      for (const option of model.optional || []) boxes[option.name].value = (example[option.name] || []).join(", ");
      form.requestSubmit();
    });
    examples.append(button);
  });
  form.append(examples);
  const result = element("div", { class: "result", "data-state": "empty" });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const inputs = Object.fromEntries(model.fields.map((field) => [field, boxes[field].value]));
    for (const option of model.optional || []) {
      const text = boxes[option.name].value.trim();
      if (text) inputs[option.name] = text.split(/[\s,]+/).filter(Boolean).map((word) => (/^\d+$/.test(word) ? Number(word) : word));
    }
    result.dataset.state = "busy";
    result.replaceChildren(element("p", { class: "loading", text: "Predicting…" }));
    let answer;
    try {
      const response = await fetch(`/api/predict/${encodeURIComponent(model.name)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(inputs),
      });
      answer = await response.json();
    } catch (error) {
      answer = { error: `the server did not answer (${error})` };
    }
    if (answer.error) {
      result.replaceChildren(element("p", { class: "error", text: answer.error }));
      result.dataset.state = "error";
      return;
    }
    const raw = element("details", {}, element("summary", { text: "JSON, as allennlp predict writes it" }), element("pre", { text: JSON.stringify(answer) }));
    result.replaceChildren(RENDERERS[model.kind](answer, inputs), raw);
    result.dataset.state = "done";
  });
  const main = element("div", {}, form, result);
  return element(
    "section",
    { class: "panel", id: `panel-${model.name}`, "data-model": model.name, "data-kind": model.kind, role: "tabpanel" },
    element("h2", { text: model.title }),
    element("p", { class: "archive", text: model.archive }),
    element("div", { class: "columns" }, main, elmoChart(model.elmo)),
  );
}

function select(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.model === name));
  for (const section of document.querySelectorAll(".panel")) section.classList.toggle("active", section.dataset.model === name);
  history.replaceState(null, "", `#${encodeURIComponent(name)}`);
}

async function start() {
  const panels = document.getElementById("panels");
  const tabs = document.getElementById("tabs");
  let listing;
  try {
    listing = await (await fetch("/api/models")).json();
  } catch (error) {
    panels.replaceChildren(element("p", { class: "error", text: `Could not list the models: ${error}` }));
    return;
  }
  panels.replaceChildren();
  for (const model of listing.models) {
    const tab = element("button", { class: "tab", role: "tab", "data-model": model.name, text: model.name === model.kind ? model.name : `${model.name} · ${model.kind}` });
    tab.addEventListener("click", () => select(model.name));
    tabs.append(tab);
    panels.append(panel(model, listing.max_chars));
  }
  const wanted = decodeURIComponent(location.hash.slice(1));
  select(listing.models.some((model) => model.name === wanted) ? wanted : listing.models[0].name);
  document.body.dataset.state = "ready";
}

start();
