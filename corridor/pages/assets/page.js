// Updates the results in place when a control changes: the server renders them, as without script.
"use strict";
(function () {
  const form = document.getElementById("quote-form");
  let latest = 0;

  function queryString() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (value !== "" && !(name === "mode" && value === "send")) params.set(name, value);
    }
    return params.toString();
  }

  async function update() {
    const query = queryString();
    const target = query ? "/?" + query : "/";
    const ticket = ++latest;
    let fresh = null;
    let page = null;
    try {
      const response = await fetch(target, { headers: { Accept: "text/html" } });
      page = new DOMParser().parseFromString(await response.text(), "text/html");
      fresh = page.getElementById("results");
    } catch (error) {
      fresh = null;
    }
    if (ticket !== latest) return; // a later change is on its way
    // no results in the answer (the network, or a server in front): load the page as a form would
    if (!fresh) { location.assign(target); return; }
    document.getElementById("results").replaceWith(fresh);
    // the amount's label, hint and placeholder name the corridor's currency and the mode: the field itself stays,
    // with what is being typed in it
    for (const id of ["amount-label", "amount-hint"]) {
      const now = page.getElementById(id);
      if (now) document.getElementById(id).textContent = now.textContent;
    }
    const box = page.getElementById("amount");
    if (box) document.getElementById("amount").placeholder = box.placeholder;
    history.replaceState(null, "", target);
  }

  let timer;
  form.addEventListener("change", () => { clearTimeout(timer); update(); });
  form.addEventListener("input", (event) => {
    if (event.target.id !== "amount") return;
    clearTimeout(timer);
    timer = setTimeout(update, 300);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(timer); update(); });
})();
