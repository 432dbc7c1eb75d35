-- The rules: who decides, what they may do, and when the game ends.
-- Two states: "turn" (the seat in ctx.locals.seat scores a point or passes) and "tally"
-- (automatic: it names the winner and ends the game).

local GOAL = 5

local function other(seat)
  return seat == "P1" and "P2" or "P1"
end

local turn = {}

function turn.prompt(ctx)
  return {
    seat = ctx.locals.seat,
    text = string.format("Score a point (first to %d wins), or pass", GOAL),
    actions = {
      { name = "score", label = "Score a point" },
      { name = "pass", label = "Pass" },
    },
  }
end

function turn.score(ctx)
  local seat = ctx.locals.seat
  local points = ctx:add_counter("points." .. seat, 1)
  ctx:log(string.format("%s scores: %d point(s).", seat, points))
  if points >= GOAL then
    ctx:replace("tally")
  else
    ctx:replace("turn", { seat = other(seat) })
  end
end

function turn.pass(ctx)
  ctx:replace("turn", { seat = other(ctx.locals.seat) })
end

local tally = {}

function tally.run(ctx)
  local a, b = ctx:counter("points.P1"), ctx:counter("points.P2")
  ctx:game_over({
    winner = a > b and "P1" or "P2",
    scores = { P1 = a, P2 = b },
    text = string.format("Final score %d to %d.", a, b),
  })
end

return {
  setup = function(ctx, scenario, options)
    ctx:push("turn", { seat = "P1" })
  end,
  states = { turn = turn, tally = tally },
  bots = { greedy = include("bots/greedy.lua") },
}
