-- La Guerre de l'Empereur: the Player Mats (2.5, 2.51). Each power's Corps hold up to three
-- divisions, infantry, cavalry or artillery, in the mat's three boxes (France's Corps 1-4
-- may hold a fourth, a cavalry division); the composition is not open to the other players
-- (5.51). It is kept in the power's private state (`ctx.private[power].mat`, by Corps
-- number), entered by private inputs: the other seats read only that the mat was changed.

local powers = include("rules/powers.lua")

local mat = {}

mat.KINDS = { "infantry", "cavalry", "artillery" }

--- The divisions Corps `corps` of `power` may hold: three, or four with the extra cavalry
--- of France's Corps 1-4 (2.5).
function mat.capacity(power, corps)
  return (power == "FR" and corps <= 4) and 4 or 3
end

--- The most divisions of `kind` the Corps may take, given the kinds entered before it (in
--- the order infantry, cavalry, artillery): three boxes, and a fourth for cavalry only.
function mat.most(power, corps, kind, entered)
  local cap = mat.capacity(power, corps)
  local inf, cav = entered.infantry or 0, entered.cavalry or 0
  if kind == "infantry" then
    return 3
  elseif kind == "cavalry" then
    return cap - inf
  end
  return math.min(3 - inf, cap - inf - cav)
end

mat.states = {}

local edit = {}
mat.states.mat = edit

-- Where the entry stands is private too: the Corps and figures entered so far.
local function draft(ctx)
  return ctx.private[ctx.locals.power].draft or {}
end

function edit.prompt(ctx)
  local power = ctx.locals.power
  local d = draft(ctx)
  local words = string.format("%s adjusts its Player Mat", powers.name(ctx, power))
  if not d.corps then
    local own = {}
    for corps, f in pairs(ctx.private[power].mat or {}) do
      own[#own + 1] = string.format("#%s %d/%d/%d", corps, f.infantry, f.cavalry, f.artillery)
    end
    table.sort(own)
    return {
      seat = power,
      private = words,
      text = string.format("2.5 %s's Player Mat (infantry/cavalry/artillery: %s): which Corps?", powers.name(ctx, power),
        #own > 0 and table.concat(own, ", ") or "no Corps entered"),
      actions = {
        { name = "corps", min = 1, max = ctx.data.tables.corps[power], label = "Corps number" },
        { name = "close", label = "Done" },
      },
    }
  end
  local kind = mat.KINDS[#d.figures + 1]
  local entered = {}
  for i, n in ipairs(d.figures) do
    entered[mat.KINDS[i]] = n
  end
  return {
    seat = power,
    private = words,
    text = string.format("2.5 Corps #%d: its %s divisions", d.corps, kind),
    actions = { { name = "set", min = 0, max = mat.most(power, d.corps, kind, entered), label = kind } },
  }
end

function edit.corps(ctx, corps)
  ctx.private[ctx.locals.power].draft = { corps = corps, figures = {} }
end

function edit.set(ctx, n)
  local power = ctx.locals.power
  local d = draft(ctx)
  d.figures[#d.figures + 1] = n
  if #d.figures < #mat.KINDS then
    ctx.private[power].draft = d
    return
  end
  local f = { infantry = d.figures[1], cavalry = d.figures[2], artillery = d.figures[3] }
  ctx.private[power].mat = ctx.private[power].mat or {}
  ctx.private[power].mat[tostring(d.corps)] = (f.infantry + f.cavalry + f.artillery > 0) and f or nil
  ctx.private[power].draft = nil
  ctx:tell(power, string.format("Corps #%d: %d infantry, %d cavalry, %d artillery.", d.corps, f.infantry, f.cavalry, f.artillery))
end

function edit.close(ctx)
  ctx:log(string.format("%s has adjusted its Player Mat.", powers.name(ctx, ctx.locals.power)))
  ctx:pop(nil)
end

return mat
