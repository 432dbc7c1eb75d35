-- La Guerre de l'Empereur: the questions the rules ask at the table. A question is a state
-- whose prompt names the player and the choices; a procedure's step calls it (for each of
-- its items, the item as the question's `power`), and each answer hands its result back
-- (ctx:pop): a result fixed by the choice, the number or choice the player gave, or
-- nothing.

local util = include("@lib/util.lua")
local steps = include("@lib/steps.lua")

local ask = {}

--- A procedure's step (a table for steps.procedure) that calls the state its `calls`
--- names; a step with `each` asks it once for each item, the item as its `power`.
function ask.calling(step)
  local state = step.calls
  step.run = function(ctx, power)
    return steps.call(state, { power = power })
  end
  return step
end

--- A question put to the power its step asks (or to `seat(ctx)`): its words
--- `words(ctx, power)`, its `actions` (a fresh copy for each prompt), and its answers
--- (`answers`: an action's name to its handler).
function ask.question(words, actions, answers, seat)
  local state = {
    prompt = function(ctx)
      local power = ctx.locals.power
      return { seat = seat and seat(ctx) or power, text = words(ctx, power), actions = util.copy(actions) }
    end,
  }
  for action, answer in pairs(answers) do
    state[action] = answer
  end
  return state
end

--- The answer that ends the question with `result` (a fresh copy each time: the state that
--- asked may keep it).
function ask.result(result)
  return function(ctx)
    ctx:pop(util.copy(result))
  end
end

--- The answer that ends the question with what the player gave (the action's argument).
function ask.given(ctx, arg)
  ctx:pop(arg)
end

--- The answer that ends the question with nothing to hand back.
function ask.done(ctx)
  ctx:pop()
end

return ask
