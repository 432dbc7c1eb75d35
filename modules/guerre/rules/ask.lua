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

--- A step's `each`: every Player Country in turn, in the powers' order.
function ask.players(ctx)
  return ctx.vars.pcs
end

--- A question put to the power its step asks (or to `seat(ctx)`): its words
--- `words(ctx, power)`, its `actions` (a list, a fresh copy for each prompt; or
--- `actions(ctx, power)`, which gives them), and its answers (`answers`: an action's name
--- to its handler).
function ask.question(words, actions, answers, seat)
  local state = {
    prompt = function(ctx)
      local power = ctx.locals.power
      local offered = type(actions) == "function" and actions(ctx, power) or util.copy(actions)
      return { seat = seat and seat(ctx) or power, text = words(ctx, power), actions = offered }
    end,
  }
  for action, answer in pairs(answers) do
    state[action] = answer
  end
  return state
end

--- The seat a question asks now, of those it asks one after another (its locals' `seats`,
--- the `n`th now): its `seat`, for ask.question.
function ask.in_turn(ctx)
  local l = ctx.locals
  return l.seats[l.n]
end

--- Passes the question on to the next of its `seats`; false once the last has answered.
function ask.pass_on(ctx)
  local l = ctx.locals
  if l.n < #l.seats then
    l.n = l.n + 1
    return true
  end
  return false
end

--- What a state's `on_resume` got back, read as the answer to the form `form`
--- (@lib/form.lua): whether it is that form's, and the figures entered in it (nil when the
--- form was cancelled).
function ask.filled(result, form)
  if not (result and result.form == form) then
    return false, nil
  end
  return true, not result.cancelled and result.values or nil
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
