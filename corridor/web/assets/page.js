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
    const ticket = ++latest;
    const response = await fetch("/?" + query, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    if (ticket !== latest) return; // a later change is on its way
    const fresh = page.getElementById("results");
    fresh.dataset.query = query;
    document.getElementById("results").replaceWith(fresh);
    history.replaceState(null, "", query ? "/?" + query : "/");
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
