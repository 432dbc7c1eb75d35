-- The rules: who decides, what they may do, and when the game ends.
-- The game is declared steps (@lib/steps.lua): a round of turns, one for each seat from P1,
-- then the tally; again and again until a seat has the points to win. A turn is a state of
-- its own ("turn": the seat in ctx.locals.seat scores a point or passes) that hands back to
-- the round when it is done.

local steps = include("@lib/steps.lua")

local GOAL = 5
local SEATS = { "P1", "P2" }

-- The seat that has the points to win, if one has.
local function winner(ctx)
  for _, seat in ipairs(SEATS) do
    if ctx:counter("points." .. seat) >= GOAL then
      return seat
    end
  end
  return nil
end

local game = steps.procedure("Game", {
  {
    name = "A turn each",
    calls = "turn",
    each = function(ctx)
      return steps.from(SEATS, "P1")
    end,
    -- Once a seat has won, the others do not play their turns.
    skip = function(ctx, seat)
      return winner(ctx) ~= nil
    end,
    run = function(ctx, seat)
      return steps.call("turn", { seat = seat })
    end,
  },
  {
    name = "The tally",
    run = function(ctx)
      local seat = winner(ctx)
      if seat == nil then
        return -- no winner yet: another round
      end
      local a, b = ctx:counter("points.P1"), ctx:counter("points.P2")
      ctx:game_over({
        winner = seat,
        scores = { P1 = a, P2 = b },
        text = string.format("Final score %d to %d.", a, b),
      })
      return steps.stop()
    end,
  },
  again = true,
})

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
  ctx:log("%s scores: %d point(s).", seat, points)
  ctx:pop()
end

function turn.pass(ctx)
  ctx:pop()
end

return {
  setup = function(ctx, scenario, options)
    ctx:call("game")
  end,
  states = { game = game, turn = turn },
  bots = { greedy = include("bots/greedy.lua") },
}
