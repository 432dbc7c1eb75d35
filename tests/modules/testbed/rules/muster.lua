-- Testbed muster: a procedure written as declared steps (@lib/steps.lua). Each seat in turn,
-- from Beta and around, levies one or two infantry (a seat that has left is passed by);
-- then Alpha reviews the army and picks how many cavalry join; the reinforcement uses that
-- pick. The scenario "muster" starts with it.

local steps = include("@lib/steps.lua")

local muster = {}

muster.muster = steps.procedure("Muster", {
  {
    name = "1. Levy",
    calls = "levy",
    each = function(ctx)
      return steps.from(ctx:seats(), "B")
    end,
    skip = function(ctx, seat)
      return (ctx.vars.gone or {})[seat] == true
    end,
    label = function(ctx, seat)
      return ctx.data.seats[seat].name
    end,
    run = function(ctx, seat)
      return steps.call("levy", { seat = seat })
    end,
    resume = function(ctx, levied, seat)
      ctx:add_units("pool", "inf", levied)
      ctx:log("%s: %s levies %d infantry.", steps.where(ctx), ctx.data.seats[seat].name, levied)
    end,
  },
  {
    name = "2. Review",
    calls = "review",
    run = function(ctx)
      return steps.call("review", {})
    end,
    resume = function(ctx, cavalry)
      ctx.locals.cavalry = cavalry
    end,
  },
  {
    name = "3. Reinforce",
    run = function(ctx)
      ctx:add_units("pool", "cav", ctx.locals.cavalry)
      ctx:log("%s: %d cavalry join the pool.", steps.where(ctx), ctx.locals.cavalry)
    end,
  },
})

-- A seat levies one or two infantry.
muster.levy = {}

function muster.levy.prompt(ctx)
  local seat = ctx.locals.seat
  return {
    seat = seat,
    text = "Levy infantry",
    actions = {
      { name = "levy", arg = 1, label = "Levy one" },
      { name = "levy", arg = 2, label = "Levy two" },
    },
  }
end

function muster.levy.levy(ctx, n)
  ctx:pop(n)
end

-- Alpha reviews the army: how many cavalry join.
muster.review = {}

function muster.review.prompt(ctx)
  return {
    seat = "A",
    text = "Review: how many cavalry join?",
    actions = {
      { name = "cavalry", arg = 1, label = "One" },
      { name = "cavalry", arg = 2, label = "Two" },
    },
  }
end

function muster.review.cavalry(ctx, n)
  ctx:pop(n)
end

return muster
