<!-- include start from constraint/vrf.xml.i -->
<constraint>
  <validator name="vrf-name"/>
</constraint>
<constraintErrorMessage>VRF instance name must be 15 characters or less and can not\nbe named as regular network interfaces.\nA name must starts from a letter.\n</constraintErrorMessage>
<!-- include end -->
