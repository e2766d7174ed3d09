-- wrk script for the tests' loads: each connection pauses between its requests (in milliseconds,
-- wrk's argument after `--`), so that a load keeps its connections busy through a HUP or a swap
-- without taking both cores from the tests running beside it
local pause = 50

function init(args)
  pause = tonumber(args[1]) or pause
end

function delay()
  return pause
end
