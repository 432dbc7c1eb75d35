-- La Guerre de l'Empereur: the Player Mats (2.5, 2.51). Each power's Corps hold up to three
-- divisions, infantry, cavalry or artillery, in the mat's three boxes (France's Corps 1-4
-- may hold a fourth, a cavalry division); the composition is not open to the other players
-- (5.51). It is kept in the power's private state (`ctx.private[power].mat`, by Corps
-- number), entered one Corps at a time in a private form: the other seats read only that
-- the mat was changed.

local form = include("@lib/form.lua")
local powers = include("rules/powers.lua")
local ask = include("rules/ask.lua")

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

-- The form a player fills in for one Corps: its number, then its divisions of each kind.
form.define("mat", "Player Mat", function(ctx, values, data)
  local power = data.power
  local own = {}
  for corps, f in pairs(ctx.private[power].mat or {}) do
    own[#own + 1] = string.format("#%s %d/%d/%d", corps, f.infantry, f.cavalry, f.artillery)
  end
  table.sort(own)
  local fields = {
    {
      key = "corps",
      text = string.format("2.5 %s's Corps (infantry/cavalry/artillery: %s): which Corps?", powers.name(ctx, power),
        #own > 0 and table.concat(own, ", ") or "none entered"),
      min = 1,
      max = ctx.data.tables.corps[power],
    },
  }
  if values.corps then
    for _, kind in ipairs(mat.KINDS) do
      fields[#fields + 1] = {
        key = kind,
        text = string.format("Corps #%d: its %s divisions", values.corps, kind),
        min = 0,
        max = mat.most(power, values.corps, kind, values),
      }
    end
  end
  return fields
end)

--- `power` fills in one Corps of its Player Mat, privately: the other seats read only
--- that it adjusts its mat. The caller's `on_resume` passes the result to `mat.store`.
function mat.edit(ctx, power)
  form.open(ctx, "mat", {
    seat = power,
    private = string.format("%s adjusts its Player Mat", powers.name(ctx, power)),
    data = { power = power },
    cancel = "Leave the mat as it is",
  })
end

--- Keeps a filled-in mat form's Corps in its power's private state (a Corps with no
--- division is off the mat). Returns whether `result` was such a form.
function mat.store(ctx, power, result)
  local ours, v = ask.filled(result, "mat")
  if v then
    local f = { infantry = v.infantry, cavalry = v.cavalry, artillery = v.artillery }
    ctx.private[power].mat[tostring(v.corps)] = (f.infantry + f.cavalry + f.artillery > 0) and f or nil
    ctx:tell(power, string.format("Corps #%d: %d infantry, %d cavalry, %d artillery.", v.corps, f.infantry, f.cavalry, f.artillery))
    ctx:log(string.format("%s has adjusted its Player Mat.", powers.name(ctx, power)))
  end
  return ours
end

return mat
